import Synchronization
import Testing

@testable import BlueZ
@testable import DBus

/// What the bus daemon routes to a client that mirrors one adapter, with a unit heard by two adapters (as
/// on a factory line): another client discovers and connects through hci1 while the hci0 client listens.
@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct MirrorScopeMockBusTests {
    static let address = "24:0A:C4:12:34:56"
    static let twoAdapters =
        #"{"adapters": [{"name": "hci0", "address": "00:AA:BB:CC:DD:00"}, {"name": "hci1", "address": "00:AA:BB:CC:DD:01"}],"#
        + #" "devices": [{"address": "24:0A:C4:12:34:56", "name": "BLUFI_DEVICE", "adapters": ["hci0", "hci1"]}]}"#

    /// Every signal the bus sends a connection, whichever subscription asked for it: a local subscription
    /// without a rule on the bus.
    final class Tap: Sendable {
        private let signals = Mutex<[DBusSignal]>([])

        static func on(_ connection: DBusConnection) async -> Tap {
            let tap = Tap()
            _ = await connection.addSubscription(
                DBusConnection.Subscription(
                    rule: DBusMatchRule(), deliver: { signal, _ in tap.signals.withLock { $0.append(signal) } },
                    end: { _ in }))
            return tap
        }

        /// The objects the signals were about: the emitting object, or the path an object manager announced.
        var objects: [DBusObjectPath] {
            signals.withLock { $0 }.map { signal in
                signal.interface == BlueZNames.objectManager ? signal.arguments.first?.objectPath ?? .root : signal.path
            }
        }
    }

    @Test(arguments: [true, false])
    func aClientOfOneAdapterIsSentNothingAboutAnother(scoped: Bool) async throws {
        let hci1 = DBusObjectPath("/org/bluez/hci1")!
        try await BlueZMock.with(Self.twoAdapters) { mock in
            let scope = scoped ? BlueZMirrorScope(adapter: "hci0")! : .allAdapters
            try await BlueZClient.withClient(
                bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast, mirroring: scope
            ) {
                lane in
                let tap = await Tap.on(lane.connection)
                try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) {
                    other in
                    let device = try await other.findDevice(
                        on: other.adapter(.name("hci1")), filter: .bluFi, timeout: .seconds(3))
                    try await other.withConnectedDevice(device) { _ in }
                }
                // The lane's own calls are answered after everything the mock sent before them.
                let own = try await lane.findDevice(
                    on: lane.adapter(.name("hci0")), filter: .bluFi, timeout: .seconds(3))
                #expect(own.path.rawValue == "/org/bluez/hci0/dev_24_0A_C4_12_34_56")
                let about = tap.objects
                #expect(about.contains { $0.isDescendant(of: DBusObjectPath("/org/bluez/hci0")!) })
                let aboutHCI1 = about.filter { $0.isDescendant(of: hci1) }
                let mirroredHCI1 = await lane.tree.objects.keys.filter { $0.isDescendant(of: hci1) }
                if scoped {
                    #expect(aboutHCI1.isEmpty, "the bus sent the hci0 client \(aboutHCI1.count) signals about hci1")
                    #expect(mirroredHCI1.isEmpty)
                    #expect(await lane.tree.adapters.map(\.name) == ["hci0"])
                } else {
                    #expect(aboutHCI1.count > 5, "a client of the whole tree hears hci1's discovery and link")
                    #expect(!mirroredHCI1.isEmpty)
                }
            }
        }
    }

    /// A link a killed run left up through hci1 is outside an hci0 client's mirror, yet that client still
    /// releases it (once) before looking for the unit.
    @Test func releasesALinkLeftUpThroughAnotherAdapter() async throws {
        try await BlueZMock.with(Self.twoAdapters) { mock in
            let fast = BlueZClientMockBusTests.fast
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: fast) { holder in
                let device = try await holder.findDevice(
                    on: holder.adapter(.name("hci1")), filter: .bluFi, timeout: .seconds(3))
                try await holder.withConnectedDevice(device) { _ in
                    try await BlueZClient.withClient(
                        bus: mock.busAddress, timeouts: fast, mirroring: .init(adapter: "hci0")!
                    ) {
                        lane in
                        let filter = BlueZScanFilter(address: Self.address)
                        let released = await lane.releaseStaleConnections(matching: filter)
                        #expect(released.map(\.path) == [device.path])
                        #expect(await lane.releaseStaleConnections(matching: filter).isEmpty, "released once")
                    }
                    try await holder.wait(for: "the link to drop", timeout: .seconds(2)) { _, tree in
                        tree.device(at: device.path)?.isConnected == false
                    }
                }
            }
        }
    }
}
