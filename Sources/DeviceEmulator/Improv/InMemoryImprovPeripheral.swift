public import Improv
public import Transports

/// An ``EmulatedImprovDevice`` behind the GATT port, in process: reads answer from the device, writes
/// go to it, its notifications come back on the subscribed characteristics; for flow tests and
/// `ztprov demo`. A script may answer a write in the device's place, to play a device that misbehaves.
public actor InMemoryImprovPeripheral: GATTConnection {
    /// Values to notify, by characteristic, in order.
    public typealias Answer = [(ImprovCharacteristic, [UInt8])]

    /// An access the Improv service does not allow.
    public struct NotPermitted: GATTFailure {
        public var gattFailureKind: GATTFailureKind { .notPermitted }
    }

    public nonisolated let mtu = 185
    public nonisolated let services = [
        GATTService(
            uuid: ImprovGATTProfile.serviceUUID,
            characteristics: ImprovCharacteristic.allCases.map {
                GATTCharacteristic(id: GATTAttributeID($0.uuid), uuid: $0.uuid, properties: [.read, .write, .notify])
            })
    ]
    public private(set) var device: EmulatedImprovDevice
    /// Every value written, in order.
    public private(set) var writes: [[UInt8]] = []
    private let capabilities: [UInt8]?
    private let script: @Sendable (_ writeNumber: Int, _ value: [UInt8]) -> Answer?
    private var subscribers: [ImprovCharacteristic: AsyncThrowingStream<[UInt8], any Error>.Continuation] = [:]

    /// `capabilities` replaces the capabilities value the device returns; `script` answers the n-th
    /// write (from 1) instead of the device when it returns a value.
    public init(
        _ configuration: EmulatedImprovDeviceConfiguration, capabilities: [UInt8]? = nil,
        script: @escaping @Sendable (_ writeNumber: Int, _ value: [UInt8]) -> Answer? = { _, _ in nil }
    ) {
        device = EmulatedImprovDevice(configuration: configuration)
        self.capabilities = capabilities
        self.script = script
    }

    public func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        guard let improv = ImprovCharacteristic(uuid: characteristic.uuid) else { throw NotPermitted() }
        if improv == .capabilities, let capabilities { return capabilities }
        return device.read(improv)
    }

    public func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw NotPermitted()
    }

    public func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) throws {
        guard ImprovCharacteristic(uuid: characteristic.uuid) == .rpcCommand else { throw NotPermitted() }
        writes.append(value)
        let answer = script(writes.count, value) ?? device.written(value).map { ($0.characteristic, $0.value) }
        for (characteristic, value) in answer { subscribers[characteristic]?.yield(value) }
    }

    public func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws
        -> AsyncThrowingStream<[UInt8], any Error>
    {
        guard let improv = ImprovCharacteristic(uuid: characteristic.uuid) else { throw NotPermitted() }
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: [UInt8].self, throwing: (any Error).self)
        subscribers[improv] = continuation
        return stream
    }

    /// The button press.
    public func pressButton() {
        for notification in device.authorize() { subscribers[notification.characteristic]?.yield(notification.value) }
    }
}
