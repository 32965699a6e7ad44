import BluFi
import Transports

/// A BluFi peer a test plays by hand behind the GATT port: the BluFi service with its two characteristics,
/// the test's notification stream on FF02, and every frame written to FF01 handed to ``frameWritten(_:until:)``.
protocol ScriptedBluFiPeer: GATTConnection {
    var notifications: AsyncThrowingStream<[UInt8], any Error> { get }
    func frameWritten(_ value: [UInt8], until deadline: ContinuousClock.Instant) async throws
}

/// What a scripted peer does not serve.
struct ScriptedBluFiPeerUnsupported: Error {}

extension ScriptedBluFiPeer {
    var services: [GATTService] {
        [
            GATTService(
                uuid: BluFiGATTProfile.serviceUUID,
                characteristics: [
                    GATTCharacteristic(
                        id: GATTAttributeID("ff01"), uuid: BluFiGATTProfile.writeCharacteristicUUID, properties: .write),
                    GATTCharacteristic(
                        id: GATTAttributeID("ff02"), uuid: BluFiGATTProfile.notifyCharacteristicUUID,
                        properties: [.read, .notify]),
                ])
        ]
    }

    func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw ScriptedBluFiPeerUnsupported()
    }

    func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) throws -> [UInt8] {
        throw ScriptedBluFiPeerUnsupported()
    }

    func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant)
        -> AsyncThrowingStream<[UInt8], any Error>
    {
        notifications
    }

    func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws {
        try await frameWritten(value, until: deadline)
    }
}
