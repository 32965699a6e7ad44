import BluFi
import BlueZ
import Logging
import Protocomm
import Provisioning

/// The BLE lanes of `ztprov batch`: adapters resolved once, one discovery per lane for the whole batch
/// (``BatchBLEDiscoveries``), then per unit the advertisement the lane heard, a connection and the BluFi
/// flow (or ESP protocomm for a unit its QR payload named) on the lane's own bus connection, the one its
/// discovery runs on: lanes never share a write queue, and a unit costs no new connection and no new
/// snapshot of bluetoothd's objects.
enum BatchBLEWiring {
    /// The adapters' kernel names for `selectors`, or every powered adapter when none are given.
    static func lanes(_ selectors: [String]?) async throws(ProvisioningError) -> [String] {
        do {
            return try await BlueZClient.withClient { client in
                guard let selectors else {
                    let powered = await client.tree.adapters.filter(\.isPowered).map(\.name)
                    if powered.isEmpty { _ = try await client.adapter(.firstPowered) }
                    return powered
                }
                var names: [String] = []
                for text in selectors {
                    guard let selector = BlueZAdapterSelector(text) else {
                        throw ProvisioningError(
                            .invalidOption, "--adapters: \"\(text)\" is not hciN, a controller address or slot:N.",
                            hint: "Run `ztprov doctor` to list the adapters.")
                    }
                    names.append(try await client.adapter(selector).name)
                }
                return names
            }
        } catch let error as ProvisioningError {
            throw error
        } catch {
            throw .fromBlueZ(error, while: "listing adapters")
        }
    }

    /// One BLE attempt: the unit as the lane's discovery heard it, connect, provision, then hand off if asked.
    static func attempt(
        settings: BluFiWiFiSettings, security: BluFiSecurityChoice, scanFor: Duration, logger: Logger,
        discoveries: BatchBLEDiscoveries, handoff: BatchHandoff?
    ) -> BatchAttempt {
        { context in
            if let unit = context.device.protocomm {
                let connection = try await provisionProtocomm(
                    context, unit: unit, settings: settings, scanFor: scanFor, discoveries: discoveries)
                if let handoff {
                    context.progress("joined as \(connection.ipAddress); an ESP protocomm unit sends no device ID")
                    try await handoff.run(context, deviceID: nil)
                }
                return
            }
            let outcome = try await provision(
                context, settings: settings, security: security, scanFor: scanFor, logger: logger,
                discoveries: discoveries)
            if let handoff { try await handoff.run(context, deviceID: outcome.deviceID) }
        }
    }

    /// An ESP provisioning unit: found by its advertised name, paired if it insists (the bond removed
    /// afterwards), and provisioned with protocomm as its QR payload says.
    private static func provisionProtocomm(
        _ context: BatchAttemptContext, unit: BatchProtocommUnit, settings: BluFiWiFiSettings, scanFor: Duration,
        discoveries: BatchBLEDiscoveries
    ) async throws -> ProtocommDeviceConnection {
        let (device, journal) = (context.device, context.journal)
        journal.ran(protocol: BLEProtocol.protocomm.rawValue)
        guard case .station(let station) = settings.mode else {
            throw ProvisioningError(
                .invalidOption, "An ESP protocomm unit only joins a network: it has no SoftAP modes.",
                hint: "Use --mode sta (the default) with --ssid.")
        }
        let pop = device.proofOfPossession
        let request = ProtocommWiFiRequest(
            network: ProtocommTargetNetwork(ssid: station.ssid, passphrase: station.password),
            security: ProtocommSecurityOptions(
                level: unit.security, proofOfPossession: unit.security == .security2 ? nil : pop,
                srpUsername: unit.username ?? "wifiprov", srpPassword: unit.security == .security1 ? nil : pop))
        let filter = BlueZScanFilter(name: device.name, address: device.address)
        let progress: ProtocommProgressSink = { progress in
            journal.note(progress)
            context.progress("\(progress)")
        }
        return try await withHeardUnit(
            context, filter: filter, within: scanFor, on: discoveries, speaking: "ESP protocomm"
        ) { client, found, activity in
            let outcome = try await discoveries.pausing(context.lane) { resumeDiscovery in
                try await client.withConnectedDevice(
                    found, pairing: .justWorks(keepBond: false, whenUnanswered: true), until: context.deadline
                ) { gatt in
                    await resumeDiscovery()
                    activity = "talking ESP protocomm"
                    journal.began("session")
                    context.progress("connected, ATT MTU \(gatt.mtu)")
                    return try await ProtocommBLEProvisioner().run(
                        ProtocommBLERequest(wifi: request, advertisedServices: found.serviceUUIDs), on: gatt,
                        address: found.address, deadline: context.deadline, progress: progress)
                }
            }
            return outcome.connection
        }
    }

    /// Runs `provision` on the unit as its lane heard it, with the lane's client: links a previous run
    /// left up are released first, and the journal marks the scan and the connect that follows.
    /// `provision` names what it is doing in `activity`, so a BlueZ failure says what it interrupted;
    /// `flow`, when given, follows the address in the "connecting to" line.
    private static func withHeardUnit<Outcome>(
        _ context: BatchAttemptContext, filter: BlueZScanFilter, within scanFor: Duration,
        on discoveries: BatchBLEDiscoveries, speaking flow: String? = nil,
        _ provision: (_ client: BlueZClient, _ found: BlueZDevice, _ activity: inout String) async throws -> Outcome
    ) async throws -> Outcome {
        var activity = "scanning"
        do {
            guard let lane = await discoveries.lane(context.lane) else { throw CancellationError() }
            for stale in await lane.client.releaseStaleConnections(matching: filter) {
                context.progress("released a link a previous run left up to \(stale.address)")
            }
            context.journal.began("scan")
            try await discoveries.ensureRunning(context.lane)
            let found = try await lane.client.heardDevice(on: lane.adapter, filter: filter, timeout: scanFor)
            context.journal.found(address: found.address)
            context.journal.began("connect")
            activity = "connecting"
            context.progress("connecting to \(found.address)" + (flow.map { " (\($0))" } ?? ""))
            return try await provision(lane.client, found, &activity)
        } catch let error as ProvisioningError {
            throw error
        } catch {
            throw ProvisioningError.fromBlueZ(error, while: activity)
        }
    }

    private static func provision(
        _ context: BatchAttemptContext, settings: BluFiWiFiSettings, security: BluFiSecurityChoice,
        scanFor: Duration, logger: Logger, discoveries: BatchBLEDiscoveries
    ) async throws -> BluFiProvisioningOutcome {
        let (unit, journal) = (context.device, context.journal)
        journal.ran(protocol: BLEProtocol.bluFi.rawValue)
        let filter = BlueZScanFilter(
            serviceUUIDs: unit.address == nil ? [] : [BluFiGATTProfile.serviceUUID], name: unit.name,
            address: unit.address)
        let progress: BluFiProgressSink = { progress in
            journal.note(progress)
            context.progress("\(progress)")
        }
        return try await withHeardUnit(context, filter: filter, within: scanFor, on: discoveries) {
            client, found, activity in
            try await BluFiProvisioner.runFallingBack(
                settings, security: security, logger: logger, deadline: context.deadline, progress: progress
            ) { session in
                activity = "connecting"
                return try await discoveries.pausing(context.lane) { resumeDiscovery in
                    try await client.withConnectedDevice(
                        found, requiring: [BluFiGATTProfile.serviceUUID], until: context.deadline
                    ) {
                        gatt in
                        await resumeDiscovery()
                        activity = "talking BluFi"
                        context.progress("connected, ATT MTU \(gatt.mtu)")
                        return try await session(gatt)
                    }
                }
            }
        }
    }
}
