import Foundation
import Testing
import Transports

@testable import BlueZ

/// The generic GATT port against the BlueZ mock: discovery with properties and descriptors, reads,
/// both write types, the required-services check, and the scope's cleanup.
@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct GATTConnectionMockBusTests {
    @Test func discoversServicesCharacteristicsAndDescriptors() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnection(to: device, requiring: ["ffff", "1801"]) { gatt in
                    #expect(
                        Set(gatt.services.map(\.uuid)) == [BluetoothUUID.expand(0x1801), BluetoothUUID.expand(0xFFFF)])
                    let write = try #require(gatt.service("ffff")?.characteristic("ff01"))
                    let notify = try #require(gatt.service("ffff")?.characteristic("ff02"))
                    #expect(write.properties == [.write])
                    #expect(notify.properties == [.read, .notify])
                    let cccd = try #require(notify.descriptor("2902"))
                    #expect(try await gatt.read(cccd, until: .now + .seconds(5)) == [0, 0])
                    _ = try await gatt.subscribe(to: notify, until: .now + .seconds(5))
                    #expect(
                        try await gatt.read(cccd, until: .now + .seconds(5)) == [1, 0],
                        "subscribing turned notifications on")
                    #expect(try await gatt.read(notify, until: .now + .seconds(5)).count <= gatt.maximumWriteLength + 2)
                }
            }
            let calls = try mock.calledMethods()
            #expect(calls.suffix(2) == ["StopNotify", "Disconnect"], "\(calls)")
        }
    }

    @Test func refusesWritesTheCharacteristicDoesNotAllow() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device) { gatt in
                    let write = try gatt.bluFiCharacteristic("ff01")
                    await #expect(throws: BlueZError.self) {
                        try await gatt.write(
                            [0x1C, 0, 0, 0], to: write, type: .withoutResponse, until: .now + .seconds(5))
                    }
                    let notify = try gatt.bluFiCharacteristic("ff02")
                    await #expect(throws: BlueZError.self) {
                        try await gatt.write([0], to: notify, type: .withResponse, until: .now + .seconds(5))
                    }
                }
            }
            #expect(try mock.calledMethods().last == "Disconnect")
        }
    }

    @Test func aMissingRequiredServiceIsServicesMissingAfterRetries() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                let error = await #expect(throws: BlueZError.self) {
                    try await client.withConnectedDevice(
                        device, requiring: ["021a9004-0382-4aea-bff4-6b3f1c5adfb4"],
                        retryPolicy: BlueZClientMockBusTests.quickRetries
                    ) { _ in }
                }
                guard case .servicesMissing(let what) = error else {
                    Issue.record("expected servicesMissing, got \(String(describing: error))")
                    return
                }
                #expect(what.contains("021a9004-0382-4aea-bff4-6b3f1c5adfb4"))
            }
            #expect(try mock.calledMethods().last == "Disconnect")
        }
    }

    @Test func anAttributeOfAnotherDeviceIsRefused() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device) { gatt in
                    let foreign = GATTCharacteristic(
                        id: GATTAttributeID("/org/bluez/hci0/dev_00_00_00_00_00_01/service0028/char0029"),
                        uuid: "ff01", properties: .write)
                    await #expect(throws: BlueZError.self) {
                        try await gatt.write([0], to: foreign, type: .withResponse, until: .now + .seconds(5))
                    }
                }
            }
        }
    }
}
