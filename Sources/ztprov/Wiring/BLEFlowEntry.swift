import JSONWriting
import Protocomm
import Provisioning

/// One BLE provisioning protocol as the commands run it: its ``BLEProvisioningFlow`` built from the
/// command's options, and what its outcome tells the user. `ble` and `batch` run whichever entry the device's
/// protocol names, `scan` and detection know every registered protocol, and `demo` runs each that has an
/// emulated device (``BLEFlowRegistry``).
struct BLEFlowEntry: Sendable {
    let bleProtocol: BLEProtocol
    /// Reads what the protocol needs from `ble`'s options before the scan (secrets included), so that
    /// a missing one stops the command before any radio is used.
    let ble: @Sendable (BLERunOptions) throws(ProvisioningError) -> BLEPreparedRun
    /// The protocol's run on a batch unit; nil when the protocol has no batch mode.
    let batch: (@Sendable (BatchBLEOptions) -> BatchBLEFlow)?
    /// The protocol's emulated device in `ztprov demo`; nil when the demo has none.
    let demo: (@Sendable (DemoCommand) throws(ProvisioningError) -> BLEDemoDevice)?

    init(
        _ bleProtocol: BLEProtocol,
        ble: @escaping @Sendable (BLERunOptions) throws(ProvisioningError) -> BLEPreparedRun,
        batch: (@Sendable (BatchBLEOptions) -> BatchBLEFlow)? = nil,
        demo: (@Sendable (DemoCommand) throws(ProvisioningError) -> BLEDemoDevice)? = nil
    ) {
        self.bleProtocol = bleProtocol
        self.ble = ble
        self.batch = batch
        self.demo = demo
    }
}

/// What `ztprov ble` hands every protocol's entry: its options, resolved once.
struct BLERunOptions: Sendable {
    let command: BLECommand
    /// The Wi-Fi settings; nil when a Thread dataset is to be sent instead.
    let settings: WiFiSettings?
    let thread: ThreadDataset?
    let qr: ESPProvisioningQRPayload?
    /// Whether a LAN hand-off follows (`--area-id`).
    let handsOff: Bool
    let context: CommandContext
}

/// A protocol's `ble` run, ready before the scan; ``run`` refuses what the protocol cannot honour, then
/// provisions the device behind the link.
struct BLEPreparedRun: Sendable {
    let run: @Sendable (_ link: any BLELink) async throws -> BLEFlowResult

    /// Runs `flow` (made once the device is known, so it can refuse options first) and tells its outcome.
    init<Flow: BLEProvisioningFlow>(
        deadline: ContinuousClock.Instant, flow: @escaping @Sendable (BLEPeer) throws(ProvisioningError) -> Flow,
        result: @escaping @Sendable (Flow.Outcome, BLEPeer) -> BLEFlowResult
    ) {
        run = { link in
            let made = try flow(link.peer)
            return result(try await made.run(with: link, deadline: deadline), link.peer)
        }
    }
}

/// What a protocol's run tells the user, and where a LAN hand-off finds the device.
struct BLEFlowResult: Sendable {
    /// Where a hand-off after the run finds the device.
    enum HandoffTarget: Sendable {
        /// By the Zhiting device ID the device sent, if it sent one.
        case deviceID(String?)
        /// At the LAN address the device reported.
        case address(String)
    }

    /// The one-line result for people.
    let summary: String
    /// The JSON result's fields, `protocol` first.
    let fields: [JSONField]
    let handoff: HandoffTarget?
    /// What the person does next, said after the closing summary (the URL an Improv device names).
    let nextSteps: [String]

    init(summary: String, fields: [JSONField], handoff: HandoffTarget? = nil, nextSteps: [String] = []) {
        self.summary = summary
        self.fields = fields
        self.handoff = handoff
        self.nextSteps = nextSteps
    }
}

/// The BLE protocols the commands run: the built-in ones, and in a test whatever it registers besides.
enum BLEFlowRegistry {
    @TaskLocal private static var entries: [BLEFlowEntry] = [.bluFi, .improv, .protocomm]

    /// Every registered entry, in detection order.
    static var registered: [BLEFlowEntry] { entries }

    /// The entry that runs `chosen`.
    static func entry(for chosen: BLEProtocol) -> BLEFlowEntry? { entries.first { $0.bleProtocol == chosen } }

    /// Runs `body` with `extra` registered after the built-in entries, for scanning and detection as well.
    static func with<Result>(_ extra: [BLEFlowEntry], _ body: () async throws -> Result) async rethrows -> Result {
        try await $entries.withValue(entries + extra) {
            try await BLEProtocol.$registered.withValue(
                BLEProtocol.registered + extra.map(\.bleProtocol), operation: body)
        }
    }
}
