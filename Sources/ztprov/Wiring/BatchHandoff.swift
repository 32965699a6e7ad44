import Provisioning
import Records
import ZhitingLAN

/// The hand-off step of a batch attempt, one unit at a time: every hand-off binds the LAN port, so
/// lanes take turns instead of failing with `lan.port-in-use`.
actor BatchHandoff {
    private let options: HandoffOptions
    private let lan: LANOptions
    private let context: CommandContext
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(options: HandoffOptions, lan: LANOptions, context: CommandContext) {
        self.options = options
        self.lan = lan
        self.context = context
    }

    /// Hands the unit to the cloud once it is this lane's turn; its ID must be one the LAN can use.
    func run(_ attempt: BatchAttemptContext, deviceID: String?) async throws {
        guard let id = deviceID.flatMap({ ZhitingDeviceID($0.lowercased()) }) else {
            throw ProvisioningError(
                .bluFiUnusableDeviceID, "The unit did not report an ID the LAN hand-off can use.",
                hint: "Run `ztprov discover` to find it, then `ztprov handoff --device-id ID`.")
        }
        await takeTurn()
        defer { endTurn() }
        attempt.journal.began("handoff")
        attempt.progress("handing \(id) to the cloud")
        let handoffContext = CommandContext(
            console: context.console, logger: context.logger, deadline: attempt.deadline)
        let result = try await LANHandoffWiring.handOff(options, lan: lan, deviceID: id, context: handoffContext)
        attempt.journal.learned(firmware: FirmwareVersions(device: result.info.softwareVersion))
    }

    private func takeTurn() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func endTurn() {
        if waiting.isEmpty {
            busy = false
        } else {
            waiting.removeFirst().resume()
        }
    }
}
