import ArgumentParser
import BluFi
import DeviceEmulator
import JSONWriting
import Protocomm
import Provisioning
import Transports
import ZhitingLAN

/// The demo's flows: the same protocol entries, provisioners, hand-off and printers as `ble`, `softap` and
/// `handoff`, with the emulated devices of ``DemoDevices`` at the far end instead of radios and sockets.
enum DemoWiring {
    /// Every registered BLE protocol with an emulated device, then SoftAP; each device that sends its ID is
    /// handed off. Returns the JSON result's fields.
    static func run(_ command: DemoCommand, context: CommandContext) async throws(ProvisioningError) -> [JSONField] {
        var handedOff: [(path: String, name: String, id: ZhitingDeviceID, result: LANHandoffResult)] = []
        var results: [JSONValue] = []
        for entry in BLEFlowRegistry.registered {
            guard let device = try entry.demo?(command) else { continue }
            let name = entry.bleProtocol.description
            context.console.event("path", [JSONField("path", .string(entry.bleProtocol.rawValue))])
            let result = try await provision(entry, on: device, context: context)
            results.append(.object(result.fields))
            guard case .deviceID(let reported)? = result.handoff else {
                context.console.success(result.summary)
                continue
            }
            guard let id = reported.flatMap(ZhitingDeviceID.init) else {
                throw DemoDevices.broken("The emulated \(name) device sent no usable device ID.")
            }
            context.console.success("\(name): device \(id) joined \"\(DemoDevices.homeSSID)\"")
            let handoff = try await handOff(id, context: context)
            handedOff.append((entry.bleProtocol.rawValue, name, id, handoff))
        }
        context.console.event("path", [JSONField("path", "softap")])
        let softAPDevice = try await provisionOverSoftAP(command.softAPSecurity, context: context)
        let softAPHandoff = try await handOff(softAPDevice, context: context)
        handedOff.append(("softap", "SoftAP", softAPDevice, softAPHandoff))
        let devices = handedOff.map { "\($0.id) (\($0.name))" }.joined(separator: " and ")
        let echo = softAPHandoff.echo
        context.console.result(
            "Demo done: \(results.count + 1) emulated devices provisioned; \(devices) now use \(echo)")
        return handedOff.map { JSONField("\($0.path)_device", .string("\($0.id)")) }
            + [
                JSONField("ble", .array(results)), JSONField("server", .optional(echo.server)),
                JSONField("port", .optional(echo.port)),
            ]
    }

    /// `entry`'s protocol over an in-memory GATT link to its emulated `device`, run by the protocol's own
    /// `ble` entry as `ztprov ble --ssid … --protocol …` would run it.
    private static func provision(
        _ entry: BLEFlowEntry, on device: BLEDemoDevice, context: CommandContext
    ) async throws(ProvisioningError) -> BLEFlowResult {
        let name = entry.bleProtocol.description
        context.console.progress("\(name): provisioning an emulated ESP32 over an in-memory BLE link")
        let arguments = ["--ssid", DemoDevices.homeSSID, "--protocol", entry.bleProtocol.rawValue] + device.arguments
        guard let command = try? BLECommand.parse(arguments) else {
            throw DemoDevices.broken("The demo's options for \(name) are not ble's: \(arguments).")
        }
        let settings = WiFiSettings(
            .station(WiFiStationSettings(ssid: DemoDevices.homeSSID, password: Secret(DemoDevices.wifiPassword))),
            expectsDeviceID: true)
        let prepared = try entry.ble(
            BLERunOptions(
                command: command, settings: settings, thread: nil, qr: device.qr, handsOff: false, context: context))
        return try await provisioning { try await prepared.run(device.link) }
    }

    /// SoftAP: the host joins the emulated hotspot, provisions over protocomm and leaves again.
    private static func provisionOverSoftAP(
        _ softAPSecurity: DemoCommand.SoftAPSecurityOption, context: CommandContext
    ) async throws(ProvisioningError) -> ZhitingDeviceID {
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
        let outcome = try await provisioning {
            try await provisioner.run(request, deadline: context.deadline, progress: printer.report)
        }
        guard let id = outcome.deviceID.flatMap(ZhitingDeviceID.init) else {
            throw DemoDevices.broken("The emulated hotspot has no usable BSSID for the device ID.")
        }
        context.console.success("SoftAP: device \(id) joined \"\(outcome.connection.ssid)\"")
        return id
    }

    /// The LAN hand-off to the emulated device `id`, over an in-memory LAN.
    private static func handOff(_ id: ZhitingDeviceID, context: CommandContext) async throws(ProvisioningError)
        -> LANHandoffResult
    {
        let link = await DemoDevices.lan(deviceID: id)
        let flow = LANHandoff(LANFlowSetup(link: link, logger: context.logger))
        let request = LANHandoffRequest(
            target: LANTarget(deviceID: id), accessToken: Secret(DemoDevices.accessToken),
            areaID: DemoDevices.areaID)
        let printer = ProgressPrinter(console: context.console)
        return try await flow.run(request, deadline: context.deadline, progress: printer.report)
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
