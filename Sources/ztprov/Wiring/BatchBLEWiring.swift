import BlueZ
import Provisioning

/// The BLE lanes of `ztprov batch`: adapters resolved once, one discovery per lane for the whole batch
/// (``BatchBLEDiscoveries``), then per unit the advertisement the lane heard, a connection and the flow of
/// the protocol the unit runs (``BLEFlowRegistry``) on the lane's own bus connection, the one its
/// discovery runs on: lanes never share a write queue, and a unit costs no new connection and no new
/// snapshot of bluetoothd's objects.
enum BatchBLEWiring {
    /// The adapters' kernel names for `selectors`, or every powered adapter when none are given.
    static func lanes(_ selectors: [String]?) async throws(ProvisioningError) -> [String] {
        do {
            return try await BlueZClient.withClient(bus: BusHandshake.systemBus) { client in
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

    /// One BLE attempt: the unit as the lane's discovery heard it, connect, provision with the protocol
    /// its QR payload names, else the one it advertises (BluFi when it advertises none), then hand off if
    /// asked.
    static func attempt(
        _ options: BatchBLEOptions, scanFor: Duration, discoveries: BatchBLEDiscoveries, handoff: BatchHandoff?
    ) -> BatchAttempt {
        let flows = BLEFlowRegistry.registered.compactMap { entry in
            entry.batch.map { (bleProtocol: entry.bleProtocol, flow: $0(options)) }
        }
        let advertised = flows.filter { $0.flow.heard == .byAdvertisement }
        return { context in
            let unit = context.device
            let byQR = unit.protocomm == nil ? nil : flows.first { $0.flow.heard == .byQRPayload }
            let filter =
                byQR != nil
                ? BlueZScanFilter(name: unit.name, address: unit.address)
                : BlueZScanFilter(
                    serviceUUIDs: unit.address == nil ? [] : advertised.map(\.bleProtocol.serviceUUID), name: unit.name,
                    address: unit.address)
            guard let fallback = byQR ?? advertised.first else { throw CancellationError() }
            context.journal.ran(protocol: fallback.bleProtocol.rawValue)
            let outcome = try await withHeardUnit(
                context, filter: filter, within: scanFor, on: discoveries,
                speaking: byQR.map(\.bleProtocol.description)
            ) { client, found, activity in
                let chosen =
                    byQR ?? BLEProtocol.advertised(serviceUUIDs: found.serviceUUIDs, serviceData: found.serviceData)
                    .flatMap { heard in advertised.first { $0.bleProtocol == heard } } ?? fallback
                context.journal.ran(protocol: chosen.bleProtocol.rawValue)
                let link = BlueZBLELink(
                    client: client, device: found, speaking: chosen.bleProtocol, deadline: context.deadline,
                    activity: activity, lane: (discoveries, context.lane)
                ) { mtu in
                    if let step = chosen.flow.sessionStep { context.journal.began(step) }
                    context.progress("connected, ATT MTU \(mtu)")
                }
                return try await chosen.flow.run(context, link)
            }
            guard let handoff else { return }
            if let line = outcome.beforeHandoff { context.progress(line) }
            try await handoff.run(context, deviceID: outcome.deviceID)
        }
    }

    /// Runs `provision` on the unit as its lane heard it, with the lane's client: links a previous run
    /// left up are released first, and the journal marks the scan and the connect that follows.
    /// `provision` names what it is doing in `activity`, so a BlueZ failure says what it interrupted;
    /// `flow`, when given, follows the address in the "connecting to" line.
    private static func withHeardUnit<Outcome>(
        _ context: BatchAttemptContext, filter: BlueZScanFilter, within scanFor: Duration,
        on discoveries: BatchBLEDiscoveries, speaking flow: String? = nil,
        _ provision: (_ client: BlueZClient, _ found: BlueZDevice, _ activity: BLEActivity) async throws -> Outcome
    ) async throws -> Outcome {
        let activity = BLEActivity("scanning")
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
            activity.now("connecting")
            context.progress("connecting to \(found.address)" + (flow.map { " (\($0))" } ?? ""))
            return try await provision(lane.client, found, activity)
        } catch let error as ProvisioningError {
            throw error
        } catch {
            throw ProvisioningError.fromBlueZ(error, while: activity.current)
        }
    }
}
