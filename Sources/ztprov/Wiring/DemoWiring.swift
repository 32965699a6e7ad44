import BluFi
import DeviceEmulator
import Protocomm
import Provisioning
import Transports
import ZhitingLAN

/// The demo's three flows: the same provisioners, hand-off and printers as `ble`, `softap` and
/// `handoff`, with the emulated devices of ``DemoDevices`` at the far end instead of radios and sockets.
extension DemoCommand {
    /// BluFi over an in-memory GATT link; returns the ID the device sent after joining.
    func provisionOverBluFi(context: CommandContext) async throws(ProvisioningError) -> ZhitingDeviceID {
        context.console.progress("BluFi: provisioning an emulated ESP32 over an in-memory BLE link")
        let settings = WiFiSettings(
            .station(WiFiStationSettings(ssid: DemoDevices.homeSSID, password: Secret(DemoDevices.wifiPassword))),
            expectsDeviceID: true)
        let printer = ProgressPrinter(console: context.console)
        let flow = BluFiBLEFlow(
            settings, security: bluFiSecurity.choice, logger: context.logger, progress: printer.report)
        let link = DemoBLELink(peripheral: DemoDevices.bluFiLink(bluFiSecurity.scheme))
        let outcome = try await Self.provisioning { try await flow.run(with: link, deadline: context.deadline) }
        let id = try Self.deviceID(outcome.deviceID, missing: "The emulated BluFi device sent no usable device ID.")
        context.console.success("BluFi: device \(id) joined \"\(DemoDevices.homeSSID)\"")
        return id
    }

    /// SoftAP: the host joins the emulated hotspot, provisions over protocomm and leaves again.
    func provisionOverSoftAP(context: CommandContext) async throws(ProvisioningError) -> ZhitingDeviceID {
        context.console.progress("SoftAP: provisioning an emulated ESP32 through its in-memory hotspot")
        let device = DemoDevices.protocommDevice(softAPSecurity.level)
        let provisioner = SoftAPProvisioner(joiner: DemoDevices.wifiJoiner()) { _, _ in await device.connect() }
        let request = SoftAPProvisioningRequest(
            hotspot: SoftAPHotspot(ssid: DemoDevices.hotspotSSID),
            network: ProtocommTargetNetwork(ssid: DemoDevices.homeSSID, passphrase: Secret(DemoDevices.wifiPassword)),
            security: ProtocommSecurityOptions(
                proofOfPossession: Secret(DemoDevices.proofOfPossession), srpUsername: DemoDevices.srpUsername,
                srpPassword: Secret(DemoDevices.srpPassword)),
            listsNetworks: true)
        let printer = ProgressPrinter(console: context.console)
        let outcome = try await Self.provisioning {
            try await provisioner.run(request, deadline: context.deadline, progress: printer.report)
        }
        let id = try Self.deviceID(
            outcome.deviceID, missing: "The emulated hotspot has no usable BSSID for the device ID.")
        context.console.success("SoftAP: device \(id) joined \"\(outcome.connection.ssid)\"")
        return id
    }

    /// The LAN hand-off to the emulated device `id`, over an in-memory LAN.
    func handOff(_ id: ZhitingDeviceID, context: CommandContext) async throws(ProvisioningError) -> LANHandoffResult {
        let link = await DemoDevices.lan(deviceID: id)
        let flow = LANHandoff(LANFlowSetup(link: link, logger: context.logger))
        let request = LANHandoffRequest(
            target: LANTarget(deviceID: id), accessToken: Secret(DemoDevices.accessToken),
            areaID: DemoDevices.areaID)
        let printer = ProgressPrinter(console: context.console)
        return try await flow.run(request, deadline: context.deadline, progress: printer.report)
    }

    /// The ID an emulated device gave; without one the demo itself is broken, which no option can fix.
    private static func deviceID(_ reported: String?, missing: String) throws(ProvisioningError) -> ZhitingDeviceID {
        guard let id = reported.flatMap(ZhitingDeviceID.init) else {
            throw ProvisioningError(.handoffNoInfo, missing, hint: "This is a bug in the demo; please report it.")
        }
        return id
    }

    /// Runs a flow whose errors are ``ProvisioningError`` or cancellation, in the runner's typed terms.
    private static func provisioning<Value>(
        _ body: () async throws -> Value
    ) async throws(ProvisioningError) -> Value {
        do {
            return try await body()
        } catch let error as ProvisioningError {
            throw error
        } catch is CancellationError {
            throw .interruptedByUser
        } catch {
            throw ProvisioningError(
                .timeout, "The demo stopped: \(error)", hint: "This is a bug in the demo; please report it.")
        }
    }
}

/// The emulated BluFi device as a flow's link: every connection is the same in-memory peripheral.
private struct DemoBLELink: BLELink {
    let peripheral: InMemoryBluFiPeripheral

    var peer: BLEPeer { BLEPeer(address: "demo", name: "emulated ESP32") }

    func connected<Result: Sendable>(
        _ policy: BLEConnectionPolicy, _ body: @Sendable (any GATTConnection) async throws -> Result
    ) async throws -> Result {
        try await peripheral.run { try await body(peripheral) }
    }
}
