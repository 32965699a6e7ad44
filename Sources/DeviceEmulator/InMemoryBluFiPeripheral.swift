public import BluFi
public import Transports

/// A connected BluFi peripheral in the same process, as a `GATTConnection` with BluFi's service: writes
/// to FF01 go to a ``BluFiDeviceSession``, its notifications come back on FF02; for flow tests and
/// `ztprov demo`.
///
/// The device fragments for the link's MTU. A CONNECT_AP starts the join, which the device finishes
/// `joinDelay` later inside ``run(isolation:_:)``, the scope that also closes the link when it ends.
/// A ``BluFiFaultPlan`` drops notifications, loses the link, makes the device report errors or fall
/// silent. Everything the phone wrote is kept for assertions (test-side records may hold secrets).
public actor InMemoryBluFiPeripheral: GATTConnection {
    /// How the link ended.
    public enum Closure: Sendable, Equatable {
        /// The device closed it after DISCONNECT_BLE.
        case byDevice
        /// A fault dropped it.
        case lost
        /// The scope ended while it was still up, as the adapter's disconnect would.
        case byCentral
    }

    /// Why a write failed.
    public enum Failure: Error, Sendable, Equatable {
        /// The link dropped.
        case linkLost
        /// The link was already closed.
        case notConnected
        /// The characteristic does not allow the operation.
        case notPermitted
    }

    private static let writeCharacteristic = GATTCharacteristic(
        id: GATTAttributeID("ff01"), uuid: BluFiGATTProfile.writeCharacteristicUUID, properties: .write)
    private static let notifyCharacteristic = GATTCharacteristic(
        id: GATTAttributeID("ff02"), uuid: BluFiGATTProfile.notifyCharacteristicUUID, properties: [.read, .notify])

    /// BluFi's service with its two characteristics.
    public nonisolated let services = [
        GATTService(uuid: BluFiGATTProfile.serviceUUID, characteristics: [writeCharacteristic, notifyCharacteristic])
    ]

    /// The ATT MTU both sides fragment for.
    public nonisolated let mtu: Int
    /// The device's notifications; ends when the link closes, with ``Failure/linkLost`` when it is lost.
    nonisolated let notifications: AsyncThrowingStream<[UInt8], any Error>
    /// The device as it stands now: its fields, Wi-Fi state and security mode.
    public private(set) var device: BluFiDeviceSession
    /// What the device observed and did, in order.
    public private(set) var deviceEvents: [BluFiDeviceEvent] = []
    /// Every value the phone wrote, in order.
    public private(set) var writes: [[UInt8]] = []
    /// How many notifications the device sent, dropped ones included.
    public private(set) var notificationCount = 0
    /// How the link ended; `nil` while it is up.
    public private(set) var closure: Closure?
    private let notifier: AsyncThrowingStream<[UInt8], any Error>.Continuation
    private let joinDelay: Duration?
    private let joins: AsyncStream<Duration>
    private let joinScheduler: AsyncStream<Duration>.Continuation
    private let faults: BluFiFaultPlan
    private var writtenTypes: Set<BluFiFrameType> = []
    private var isSilent = false

    /// A connected link to `device` at `mtu`; the join ends `joinDelay` after CONNECT_AP (`nil`: never).
    public init(
        device: BluFiDeviceSession,
        mtu: Int = 23,
        joinDelay: Duration? = .milliseconds(200),
        faults: BluFiFaultPlan = BluFiFaultPlan()
    ) {
        self.mtu = mtu
        self.device = device
        self.device.connected(mtu: mtu)
        self.joinDelay = joinDelay
        self.faults = faults
        (notifications, notifier) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        (joins, joinScheduler) = AsyncStream.makeStream(of: Duration.self)
    }

    /// Runs `body` while the device's clock runs, then closes the link if it is still up.
    ///
    /// Call it once per link, around everything that uses the link.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await withThrowingTaskGroup(of: Void.self, returning: Result.self, isolation: isolation) { group in
            group.addTask { await self.runJoins() }
            defer { group.cancelAll() }
            do {
                let result = try await body()
                await close(.byCentral)
                return result
            } catch {
                await close(.byCentral)
                throw error
            }
        }
    }

    /// BluFi's characteristics are not read.
    public func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw Failure.notPermitted
    }

    /// BluFi's characteristics have no descriptors here.
    public func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw Failure.notPermitted
    }

    /// The device's notification stream, for FF02 only.
    public func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws
        -> AsyncThrowingStream<[UInt8], any Error>
    {
        guard characteristic.id == Self.notifyCharacteristic.id else { throw Failure.notPermitted }
        return notifications
    }

    /// Hands one frame written with response to FF01 to the device (after any fault it sets off) by
    /// `deadline`; fails once the link is closed.
    public func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws {
        try await withDeadline(deadline, "GATT write") {
            try await self.deliver(value, to: characteristic, type: type)
        }
    }

    private func deliver(_ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType) async throws {
        guard characteristic.id == Self.writeCharacteristic.id, type == .withResponse else {
            throw Failure.notPermitted
        }
        guard closure == nil else { throw Failure.notConnected }
        writes.append(value)
        let type = BluFiFrameType(rawValue: value.first ?? 0)
        let isFirstOfType = writtenTypes.insert(type).inserted
        for fault in faults.faults(atWrite: writes.count, of: type, isFirstOfType: isFirstOfType) {
            switch fault {
            case .loseLink:
                close(.lost)
                throw Failure.linkLost
            case .reportError(let code, _):
                return reportError(code)
            case .fallSilent:
                isSilent = true
            case .dropNotification:
                break
            }
        }
        apply(device.receivedWrite(value))
    }

    // MARK: The device side

    private func apply(_ actions: [BluFiDeviceSession.Action]) {
        for action in actions {
            switch action {
            case .notify(let bytes):
                notify(bytes)
            case .report(let event):
                deviceEvents.append(event)
                if event == .connectRequested, let joinDelay { joinScheduler.yield(joinDelay) }
            case .disconnect:
                close(.byDevice)
            }
        }
    }

    private func notify(_ bytes: [UInt8]) {
        guard closure == nil else { return }
        notificationCount += 1
        guard !isSilent, !faults.drops(notification: notificationCount) else { return }
        notifier.yield(bytes)
    }

    /// An ERROR frame numbered as the device's next frame, as the firmware sends one.
    private func reportError(_ code: BluFiDeviceErrorCode) {
        var encoder = BluFiFrameEncoder(
            direction: .deviceToPhone, attMTU: mtu, startingAt: UInt8(truncatingIfNeeded: notificationCount))
        // One unprotected byte never fragments and needs no cipher, so encoding cannot fail.
        for frame in (try? encoder.encode(BluFiMessage(.error, [code.rawValue]))) ?? [] { notify(frame) }
    }

    private func runJoins() async {
        for await delay in joins {
            do {
                try await Task.sleep(for: delay)
            } catch {
                return
            }
            apply(device.wifiJoinCompleted())
        }
    }

    private func close(_ how: Closure) {
        guard closure == nil else { return }
        closure = how
        device.disconnected()
        joinScheduler.finish()
        if how == .lost {
            notifier.finish(throwing: Failure.linkLost)
        } else {
            notifier.finish()
        }
    }
}
