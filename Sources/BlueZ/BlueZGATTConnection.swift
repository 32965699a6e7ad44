import DBus
import Synchronization
public import Transports

/// A connected device as a ``GATTConnection``: reads and writes through `ReadValue`/`WriteValue`, one write
/// at a time per bus connection, notifications through `StartNotify` + `PropertiesChanged` (or
/// `AcquireNotify` where the scope asked for it).
///
/// Valid only inside `BlueZClient.withConnectedDevice`; notification streams fail with
/// `BlueZError.linkLost` when the device disconnects or disappears.
public struct BlueZGATTConnection: GATTConnection {
    /// The device as it was when the link came up.
    public let device: BlueZDevice
    /// The services bluetoothd resolved, attribute handles being object paths.
    public let services: [GATTService]
    let reportedMTU: Int?
    let client: BlueZClient
    let session: Int
    /// Whether the scope's policy pairs when an access goes unanswered; when it does not, an access is only
    /// the call itself, with no question to the client first (one hop less on every write).
    let pairsWhenUnanswered: Bool
    /// The MTU an acquired notification socket reported, for BlueZ before 5.62 which exports no `MTU`.
    private let acquiredMTU = AcquiredMTU()

    init(
        device: BlueZDevice, services: [GATTService], reportedMTU: Int?, client: BlueZClient, session: Int,
        pairsWhenUnanswered: Bool
    ) {
        self.device = device
        self.services = services
        self.reportedMTU = reportedMTU
        self.client = client
        self.session = session
        self.pairsWhenUnanswered = pairsWhenUnanswered
    }

    /// Whether the device is paired now: bluetoothd encrypts a paired LE link (`Paired` in its object tree).
    public var isLinkEncrypted: Bool { get async { await client.isPaired(session: session) } }

    /// The ATT MTU from the characteristics' `MTU` property or an acquired socket, else 23.
    public var mtu: Int { reportedMTU ?? acquiredMTU.value.withLock { $0 } ?? BlueZQuirks.defaultATTMTU }

    /// Reads with `ReadValue` until the caller's deadline; throws `DeadlineExceeded` when it passes first, and
    /// `BlueZError` otherwise (e.g. `.notPermitted` when the link must be encrypted).
    public func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws
        -> [UInt8]
    {
        try await read(characteristic.id, interface: BlueZNames.gattCharacteristic, by: StepLimit(within: deadline))
    }

    /// Reads a descriptor with `ReadValue` until the caller's deadline.
    public func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        try await read(descriptor.id, interface: BlueZNames.gattDescriptor, by: StepLimit(within: deadline))
    }

    /// Writes with `WriteValue` (`type` request or command) until the caller's deadline; throws
    /// `DeadlineExceeded` when it passes first, and `BlueZError` otherwise (e.g. `.notConnected`).
    public func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws {
        try await writeValue(value, to: characteristic, type: type, by: StepLimit(within: deadline))
    }

    /// Starts a notification session, which the connection scope stops, until the caller's deadline.
    public func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant)
        async throws -> AsyncThrowingStream<[UInt8], any Error>
    {
        try await subscribe(to: characteristic, by: StepLimit(within: deadline))
    }

    private func read(_ id: GATTAttributeID, interface: String, by limit: StepLimit) async throws -> [UInt8] {
        let path = try path(id)
        return try await pairingIfRefused { try await client.readValue(path, interface: interface, by: limit) }
    }

    private func writeValue(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType, by limit: StepLimit
    ) async throws {
        let path = try path(characteristic.id)
        try await pairingIfRefused { try await client.writeValue(value, to: path, type: type, by: limit) }
    }

    /// Runs `access`; when the device refuses it until the link is paired, pairs as the scope's policy allows
    /// (once per scope) and runs it again. Throws ``BlueZError/pairingFailed(_:)`` when pairing fails.
    private func pairingIfRefused<Value: Sendable>(_ access: @escaping @Sendable () async throws -> Value)
        async throws -> Value
    {
        do {
            return try await pairingWhileUnanswered(access)
        } catch let error as BlueZError {
            let refused = error.gattFailureKind == .insufficientSecurity
            // A link that drops mid-access also fails it with ATT 0x0E; it tells of a refused pairing only where
            // bluetoothd may pair by itself. A BluFi device closing the link as asked must not be paired (and
            // so reconnected).
            let pairsOnItsOwn = await client.pairsWhenUnanswered(session: session)
            let pairingFailed = BlueZQuirks.endedByFailedPairing(error) && pairsOnItsOwn
            guard refused || pairingFailed, try await client.pairForAccess(session: session) else { throw error }
            return try await access()
        }
    }

    /// How one part of ``pairingWhileUnanswered(_:)`` ended.
    private enum AccessRace<Value: Sendable>: Sendable {
        case answered(Value)
        case unanswered
        case pairingEnded(BlueZError?)
        case pairingGraceOver
    }

    /// Runs `access`; on a link the scope may still pair, an access unanswered after
    /// ``BlueZQuirks/unansweredAccessPairingDelay`` pairs meanwhile (bluetoothd's own pairing may have
    /// failed and left it hanging). Once the access is answered, a pairing under way gets as long again to
    /// finish (cancelling it cuts its key exchange short) before it is cancelled. When pairing failed and the
    /// access then runs out of time, the failed pairing is the error.
    private func pairingWhileUnanswered<Value: Sendable>(_ access: @escaping @Sendable () async throws -> Value)
        async throws -> Value
    {
        guard pairsWhenUnanswered, await client.mayPairForAccess(session: session) else { return try await access() }
        let (client, session) = (self.client, self.session)
        return try await withThrowingTaskGroup(of: AccessRace<Value>.self) { group in
            group.addTask { .answered(try await access()) }
            group.addTask {
                try await Task.sleep(for: BlueZQuirks.unansweredAccessPairingDelay)
                return .unanswered
            }
            var answer: Value?
            var pairing: (started: Bool, failure: BlueZError?, ended: Bool) = (false, nil, false)
            do {
                while let next = try await group.next() {
                    switch next {
                    case .answered(let value) where pairing.started && !pairing.ended:
                        answer = value
                        group.addTask {
                            try await Task.sleep(for: BlueZQuirks.unansweredAccessPairingDelay)
                            return .pairingGraceOver
                        }
                    case .answered(let value):
                        group.cancelAll()
                        return value
                    case .unanswered:
                        pairing.started = true
                        group.addTask {
                            do {
                                _ = try await client.pairForAccess(session: session)
                                return .pairingEnded(nil)
                            } catch let error as BlueZError {
                                return .pairingEnded(error)
                            }
                        }
                    case .pairingEnded(let failure):
                        pairing.ended = true
                        pairing.failure = failure
                        if let answer {
                            group.cancelAll()
                            return answer
                        }
                    case .pairingGraceOver:
                        group.cancelAll()
                        if let answer { return answer }
                    }
                }
                throw CancellationError()
            } catch  where pairing.failure != nil && Self.ranOutOfTime(error) {
                throw pairing.failure ?? error
            }
        }
    }

    private static func ranOutOfTime(_ error: any Error) -> Bool {
        if error is DeadlineExceeded { return true }
        if case .timedOut = error as? BlueZError { return true }
        return false
    }

    private func subscribe(to characteristic: GATTCharacteristic, by limit: StepLimit) async throws
        -> AsyncThrowingStream<[UInt8], any Error>
    {
        let (stream, mtu) = try await client.subscribe(session: session, to: try path(characteristic.id), by: limit)
        if let mtu { acquiredMTU.value.withLock { $0 = mtu } }
        return stream
    }

    private func path(_ id: GATTAttributeID) throws -> DBusObjectPath {
        guard let path = DBusObjectPath(id.rawValue), path.isDescendant(of: device.path) else {
            throw BlueZError.doesNotExist(
                DBusError(name: "org.bluez.Error.DoesNotExist", message: "no attribute \(id)"))
        }
        return path
    }
}

/// Where a connection keeps the MTU a notification socket reported after the connection value was made.
private final class AcquiredMTU: Sendable {
    let value = Mutex<Int?>(nil)
}
