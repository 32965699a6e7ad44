import BlueZ
import Provisioning
import Synchronization
import Transports

/// A device bluetoothd heard, as a provisioning flow's ``BLELink``: each connection opened with the flow's
/// policy in BlueZ's terms, and closed by the client's connection scope.
struct BlueZBLELink: BLELink {
    let client: BlueZClient
    let device: BlueZDevice
    /// The protocol the flow speaks, for what a failure interrupted ("talking BluFi").
    let speaking: BLEProtocol
    let deadline: ContinuousClock.Instant
    let activity: BLEActivity
    /// A batch lane's discovery, paused while the link is made and resumed once it is up.
    var lane: (discoveries: BatchBLEDiscoveries, name: String)?
    /// Tells the user the link is up, with its ATT MTU.
    let announce: @Sendable (_ mtu: Int) -> Void

    var peer: BLEPeer {
        BLEPeer(
            address: device.address, name: device.name, serviceUUIDs: device.serviceUUIDs,
            serviceData: device.serviceData)
    }

    func connected<Result: Sendable>(
        _ policy: BLEConnectionPolicy, _ body: @Sendable (any GATTConnection) async throws -> Result
    ) async throws -> Result {
        activity.now("connecting")
        guard let lane else { return try await open(policy, resume: {}, body) }
        return try await lane.discoveries.pausing(lane.name) { resume in try await open(policy, resume: resume, body) }
    }

    private func open<Result: Sendable>(
        _ policy: BLEConnectionPolicy, resume: @Sendable () async -> Void,
        _ body: @Sendable (any GATTConnection) async throws -> Result
    ) async throws -> Result {
        try await client.withConnectedDevice(
            device, requiring: policy.requiredServices, pairing: Self.pairing(policy.pairing), until: deadline
        ) { gatt in
            // The lane's discovery starts again beside the session rather than before it: the session does not
            // wait for that round trip, and the discovery is running before the unit's record is written.
            async let resumed: Void = resume()
            activity.now("talking \(speaking)")
            announce(gatt.mtu)
            let result = try await body(gatt)
            await resumed
            return result
        }
    }

    private static func pairing(_ pairing: BLEConnectionPolicy.Pairing) -> BlueZPairingPolicy {
        switch pairing {
        case .never: .never
        case .justWorks(let keepsBond, let whenUnanswered):
            .justWorks(keepBond: keepsBond, whenUnanswered: whenUnanswered)
        }
    }
}

/// What a BLE command is doing, so that a BlueZ failure says what it interrupted.
final class BLEActivity: Sendable {
    private let activity: Mutex<String>

    init(_ activity: String) { self.activity = Mutex(activity) }

    var current: String { activity.withLock { $0 } }

    func now(_ activity: String) { self.activity.withLock { $0 = activity } }
}
