import BluFi
import BlueZ
import Improv
import JSONWriting
import Provisioning

/// `ztprov ble` against bluetoothd: find the device, settle its protocol, connect, run that
/// protocol's flow, and let the connection scope stop notifications and disconnect on every exit path.
extension BLEAdapterOptions {
    typealias BluFiRun = BLEDeviceRun<BluFiProvisioningOutcome>
    typealias ImprovRun = BLEDeviceRun<ImprovProvisioningOutcome>

    /// The run of whichever protocol the device speaks.
    enum BLERun: Sendable {
        case bluFi(BluFiRun)
        case improv(ImprovRun)
        case protocomm(ProtocommRun)
        case protocommThread(ProtocommThreadRun)
    }

    /// What each protocol is to do; `improv` builds its settings once the device is known, because
    /// device info is asked for only when the device advertises it can answer.
    struct BLEPlan: Sendable {
        /// The Wi-Fi settings; nil when a Thread dataset is to be sent instead.
        let bluFi: BluFiWiFiSettings?
        let security: BluFiSecurityChoice
        let improv:
            @Sendable (_ advertisedCapabilities: ImprovCapabilities?) throws(ProvisioningError) -> ImprovSettings
        let improvTimeouts: ImprovTimeouts
        /// An Improv-only option given, which a BluFi device cannot honour.
        let improvOnlyOption: String?
        /// The ESP protocomm flow's request; nil when the Wi-Fi mode is not one protocomm can send.
        let protocomm: ProtocommPlan?
        /// A protocomm-only option given, which a BluFi or Improv device cannot honour.
        let protocommOnlyOption: String?
    }

    /// Scans (at most `scanFor`), picks the protocol, connects with the adapter's classified retries,
    /// and provisions.
    func provision(
        _ plan: BLEPlan, device address: String?, choice: BLEProtocolChoice, scanFor: Duration,
        context: CommandContext
    ) async throws(ProvisioningError) -> BLERun {
        let selector = selector
        var activity = "connecting to bluetoothd"
        do {
            return try await BlueZClient.withClient(timeouts: BusHandshake.blueZTimeouts(by: context.deadline)) {
                client in
                let adapter = try await client.adapter(selector)
                activity = "scanning"
                let selected = try await selectDevice(
                    on: client, adapter: adapter, address: address, choice: choice, scanFor: scanFor, context: context)
                let device = selected.device
                activity = "connecting"
                context.console.progress("Connecting to \(device.name ?? "the device") (\(device.address))")
                context.console.event("connecting", [JSONField("address", .string(device.address))])
                if selected.chosen != .protocomm, let refused = plan.protocommOnlyOption {
                    throw ProvisioningError(
                        .invalidOption,
                        "\(refused) applies to ESP protocomm devices; this one speaks \(selected.chosen).",
                        hint: "Leave it out for this device.")
                }
                switch selected.chosen {
                case .protocomm:
                    guard let protocommPlan = plan.protocomm else {
                        throw ProvisioningError(
                            .invalidOption, "An ESP protocomm device only joins a network: it has no SoftAP modes.",
                            hint: "Use --mode sta (the default) with --ssid.")
                    }
                    let printer = ProtocommProgressPrinter(console: context.console)
                    let pairing = BlueZPairingPolicy.justWorks(keepBond: protocommPlan.keepsBond, whenUnanswered: true)
                    return try await client.withConnectedDevice(device, pairing: pairing, until: context.deadline) {
                        gatt in
                        activity = "talking ESP protocomm"
                        Self.announce(gatt.mtu, device: device, context: context)
                        let provisioner = ProtocommBLEProvisioner()
                        switch protocommPlan.network {
                        case .wifi(let wifi):
                            let outcome = try await provisioner.run(
                                ProtocommBLERequest(wifi: wifi, advertisedServices: device.serviceUUIDs), on: gatt,
                                address: device.address, deadline: context.deadline,
                                retryPassphrase: protocommPlan.retryPassphrase, progress: printer.report)
                            return .protocomm(ProtocommRun(device, outcome: outcome))
                        case .thread(let thread):
                            let outcome = try await provisioner.runThread(
                                thread, advertisedServices: device.serviceUUIDs, on: gatt, address: device.address,
                                deadline: context.deadline, progress: printer.report)
                            return .protocommThread(ProtocommThreadRun(device, outcome: outcome))
                        }
                    }
                case .bluFi:
                    guard let bluFi = plan.bluFi else { throw Self.threadNeedsProtocomm(.bluFi) }
                    if let refused = plan.improvOnlyOption {
                        throw ProvisioningError(
                            .invalidOption, "\(refused) applies to Improv devices; this one speaks BluFi.",
                            hint: "Leave it out for a BluFi device.")
                    }
                    let printer = BluFiProgressPrinter(console: context.console)
                    let outcome = try await BluFiProvisioner.runFallingBack(
                        bluFi, security: plan.security, logger: context.logger, deadline: context.deadline,
                        progress: printer.report
                    ) { session in
                        activity = "connecting"
                        return try await client.withConnectedDevice(
                            device, requiring: [BluFiGATTProfile.serviceUUID], until: context.deadline
                        ) { gatt in
                            activity = "talking BluFi"
                            Self.announce(gatt.mtu, device: device, context: context)
                            return try await session(gatt)
                        }
                    }
                    return .bluFi(BluFiRun(device, outcome: outcome))
                case .improv:
                    let settings = try plan.improv(Self.advertisedImprov(device)?.capabilities)
                    let printer = ImprovProgressPrinter(console: context.console)
                    let outcome = try await client.withConnectedDevice(
                        device, requiring: [BLEProtocol.improv.serviceUUID], until: context.deadline
                    ) { gatt in
                        activity = "talking Improv"
                        Self.announce(gatt.mtu, device: device, context: context)
                        return try await ImprovProvisioner(
                            connection: gatt, timeouts: plan.improvTimeouts, logger: context.logger
                        ).run(settings, deadline: context.deadline, progress: printer.report)
                    }
                    return .improv(ImprovRun(device, outcome: outcome))
                }
            }
        } catch {
            throw .fromBlueZ(error, while: activity)
        }
    }

    /// The Improv state and capabilities the device advertises, if its service data is readable.
    static func advertisedImprov(_ device: BlueZDevice) -> ImprovServiceData? {
        let key = BLEProtocol.improv.serviceDataUUIDs.first ?? ""
        return device.serviceData[key].flatMap { try? ImprovServiceData.decode($0) }
    }

    private static func announce(_ mtu: Int, device: BlueZDevice, context: CommandContext) {
        context.console.progress("Connected to \(device.address), ATT MTU \(mtu)")
        context.console.event("connected", [JSONField("mtu", .int(mtu))])
    }
}
