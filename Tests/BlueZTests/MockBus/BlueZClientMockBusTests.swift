import Foundation
import TestSupport
import Testing

@testable import BlueZ
@testable import DBus

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct BlueZClientMockBusTests {
    static let fast = BlueZTimeouts(
        call: .seconds(2), connectAttempt: .seconds(2), write: .seconds(2), disconnect: .seconds(2),
        rediscovery: .seconds(2))
    static let quickRetries = BlueZRetryPolicy(
        transientBackoff: .milliseconds(20), staleStateBackoff: .milliseconds(20))
    static let getVersion = [UInt8](hex: "1c 00 00 00")
    static let version13 = [UInt8](hex: "41 04 00 02 01 03")

    static func device(_ extra: String = "") -> String {
        #"{"devices": [{"address": "24:0A:C4:12:34:56", "name": "BLUFI_DEVICE"\#(extra)},"#
            + #" {"address": "C0:FF:EE:00:00:01", "name": "Thermometer", "uuids": ["0000181a-0000-1000-8000-00805f9b34fb"]}]}"#
    }

    @Test func findsTheDeviceByServiceUUID() async throws {
        try await BlueZMock.with(Self.device()) { mock in
            let device = try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
            }
            #expect(device.address == "24:0A:C4:12:34:56")
            #expect(device.manufacturerData == [0x02E5: [1, 2]])
            let calls = try mock.calledMethods()
            #expect(calls.filter { $0 == "StopDiscovery" }.count == 1)
        }
    }

    @Test func findsTheDeviceByNamePrefixAndIgnoresOthers() async throws {
        try await BlueZMock.with(Self.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let adapter = try await client.adapter(.name("hci0"))
                let found = try await client.findDevice(
                    on: adapter, filter: BlueZScanFilter(namePrefix: "BLUFI_"), timeout: .seconds(3))
                #expect(found.name == "BLUFI_DEVICE")
                await #expect(throws: BlueZError.deviceNotFound) {
                    try await client.findDevice(
                        on: adapter, filter: BlueZScanFilter(namePrefix: "NOPE"), timeout: .milliseconds(300))
                }
            }
        }
    }

    @Test func reportsACachedDeviceWhenItsRSSIChanges() async throws {
        try await BlueZMock.with(Self.device(#", "cached": true"#)) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                // Known before discovery, without RSSI: only a PropertiesChanged can announce the sighting.
                let known = await client.tree.device(at: DBusObjectPath("/org/bluez/hci0/dev_24_0A_C4_12_34_56")!)
                #expect(known != nil)
                #expect(known?.rssi == nil)
                let found = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                #expect(found.rssi == -52)
            }
        }
    }

    @Test func connectsNotifiesAndGetsTheVersionReply() async throws {
        try await BlueZMock.with(Self.device()) { mock in
            let reply = try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                return try await client.withConnectedDevice(device) { gatt in
                    #expect(gatt.mtu == 185)
                    let notifications = try await gatt.bluFiNotifications()
                    try await gatt.writeBluFi(Self.getVersion)
                    var replies = notifications.makeAsyncIterator()
                    return try await replies.next()
                }
            }
            #expect(reply == Self.version13)
            let calls = try mock.calledMethods()
            // Get: the link's MTU, read once the services resolved.
            #expect(calls.suffix(5) == ["Get", "StartNotify", "WriteValue", "StopNotify", "Disconnect"])
        }
    }

    /// A second run within bluetoothd's cache of the device: its GATT objects are known before connecting
    /// but carry no `MTU`, and none is signalled after the reconnect; the link's MTU is still 185.
    @Test func usesTheLinksMTUOnAQuickReconnect() async throws {
        try await BlueZMock.with(Self.device(#", "mtu": 247"#)) { mock in
            for run in 1...2 {
                try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                    let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                    let tree = await client.tree
                    let cached = tree.services(of: device.path).flatMap { tree.characteristics(of: $0.path) }
                    #expect(
                        run == 1 || (!cached.isEmpty && cached.allSatisfy { $0.mtu == nil }), "run \(run): \(cached)")
                    try await client.withConnectedDevice(device) { gatt in
                        #expect(gatt.mtu == 247, "run \(run)")
                    }
                }
            }
        }
    }

    @Test func retriesAnInjectedLocalConnectionAbort() async throws {
        try await BlueZMock.with(Self.device(#", "faults": {"connect_fail_first_n": 1}"#)) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device, retryPolicy: Self.quickRetries) { gatt in
                    try await gatt.writeBluFi(Self.getVersion)
                }
            }
            let connects = try mock.calledMethods().filter { $0 == "Connect" || $0 == "Disconnect" }
            #expect(connects == ["Connect", "Disconnect", "Connect", "Disconnect"])
        }
    }

    @Test func clearsAStaleInProgressConnectByRemovingTheDevice() async throws {
        try await BlueZMock.with(Self.device(#", "faults": {"in_progress_first_n": 1}"#)) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device, retryPolicy: Self.quickRetries) { _ in }
            }
            let calls = try mock.calledMethods()
            #expect(calls.contains("RemoveDevice"))
            #expect(calls.filter { $0 == "Connect" }.count == 2, "\(calls)")
        }
    }

    @Test func givesUpAfterTheRetryBudget() async throws {
        try await BlueZMock.with(Self.device(#", "faults": {"connect_fail_first_n": 9}"#)) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                let error = await #expect(throws: BlueZError.self) {
                    try await client.withConnectedDevice(device, retryPolicy: Self.quickRetries) { _ in }
                }
                guard case .connectionAborted(let dbus) = error else {
                    Issue.record("expected connectionAborted, got \(String(describing: error))")
                    return
                }
                #expect(dbus == DBusError(name: "org.bluez.Error.Failed", message: "le-connection-abort-by-local"))
            }
            #expect(try mock.calledMethods().filter { $0 == "Connect" }.count == 4)
        }
    }

    @Test func surfacesLinkLossAsAnError() async throws {
        try await BlueZMock.with(Self.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device) { gatt in
                    let notifications = try await gatt.bluFiNotifications()
                    try await mock.forceDisconnect(device.address)
                    await #expect(throws: BlueZError.linkLost("24:0A:C4:12:34:56 disconnected")) {
                        for try await _ in notifications {}
                    }
                }
            }
        }
    }

    @Test func cancellingDuringConnectDisconnects() async throws {
        try await BlueZMock.with(Self.device(#", "resolve_delay_ms": 5000"#)) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                let connecting = Task { try await client.withConnectedDevice(device) { _ in } }
                try await client.wait(for: "link", timeout: .seconds(2)) { _, tree in
                    tree.device(at: device.path)?.isConnected == true
                }
                connecting.cancel()
                await #expect(throws: CancellationError.self) { try await connecting.value }
                #expect(await client.tree.device(at: device.path)?.isConnected == false)
            }
            #expect(try mock.calledMethods().suffix(2) == ["Connect", "Disconnect"])
        }
    }

    @Test func refusesAPoweredOffAdapterAndSelectsByAddress() async throws {
        let adapters =
            #"{"adapters": [{"name": "hci0", "address": "00:AA:BB:CC:DD:00", "powered": false},"#
            + #" {"name": "hci1", "address": "00:AA:BB:CC:DD:01"}], "devices": []}"#
        try await BlueZMock.with(adapters) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: Self.fast) { client in
                await #expect(throws: BlueZError.adapterPoweredOff("hci0")) { try await client.adapter(.name("hci0")) }
                let byAddress = try await client.adapter(.address("00:aa:bb:cc:dd:01"))
                let firstPowered = try await client.adapter()
                #expect(byAddress.name == "hci1")
                #expect(firstPowered.name == "hci1")
            }
        }
    }

    @Test func reportsAMissingBluetoothd() async throws {
        try await PrivateBus.with { bus in
            let error = await #expect(throws: BlueZError.self) {
                try await BlueZClient.withClient(bus: .address(bus.address), timeouts: Self.fast) { _ in }
            }
            guard case .bluetoothdNotRunning = error else {
                Issue.record("expected bluetoothdNotRunning, got \(String(describing: error))")
                return
            }
        }
    }
}

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct AcquireNotifyMockBusTests {
    @Test func readsNotificationsFromTheAcquiredSocket() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device(#", "mtu": 247"#)) { mock in
            let reply = try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) {
                client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                return try await client.withConnectedDevice(device, notifications: .acquireWhereOffered) { gatt in
                    #expect(gatt.mtu == 247)
                    let notifications = try await gatt.bluFiNotifications()
                    try await gatt.writeBluFi(BlueZClientMockBusTests.getVersion)
                    var replies = notifications.makeAsyncIterator()
                    return try await replies.next()
                }
            }
            #expect(reply == BlueZClientMockBusTests.version13)
            let calls = try mock.calledMethods()
            #expect(calls.contains("AcquireNotify"))
            #expect(!calls.contains("StartNotify"))
            #expect(calls.last == "Disconnect")
        }
    }

    @Test func reportsLinkLossThroughTheSocket() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let device = try await client.findDevice(on: client.adapter(), filter: .bluFi, timeout: .seconds(3))
                try await client.withConnectedDevice(device, notifications: .acquireWhereOffered) { gatt in
                    let notifications = try await gatt.bluFiNotifications()
                    try await mock.forceDisconnect(device.address)
                    await #expect(throws: BlueZError.self) {
                        for try await _ in notifications {}
                    }
                }
            }
        }
    }
}

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct DiscoveryMockBusTests {
    @Test func stopsItsOwnDiscoveryBeforeConnecting() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let adapter = try await client.adapter()
                try await client.withDiscovery(on: adapter, filter: .bluFi) { devices in
                    for try await device in devices {
                        try await client.withConnectedDevice(device) { _ in }
                        break
                    }
                }
            }
            let calls = try mock.calledMethods().filter { ["StopDiscovery", "Connect", "StartDiscovery"].contains($0) }
            #expect(calls == ["StartDiscovery", "StopDiscovery", "Connect"])
        }
    }

    /// A second client connects through the adapter while the first pauses its discovery: the Connect meets
    /// an adapter that is not discovering (the mock, like the real stack, makes such a Connect take 5 s,
    /// past the 2 s attempt), then the discovery runs again with its filter until its scope stops it. The pause
    /// leaves the filter set, as bluetoothd keeps it for the client's next StartDiscovery, and the scope's end
    /// clears it.
    @Test func pausesItsDiscoveryWhileAnotherClientConnects() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            let fast = BlueZClientMockBusTests.fast
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: fast) { scanner in
                let adapter = try await scanner.adapter()
                try await scanner.withDiscovery(on: adapter, filter: .bluFi) { devices in
                    var sightings = devices.makeAsyncIterator()
                    let device = try #require(try await sightings.next())
                    #expect(try await scanner.pauseDiscovery(on: adapter))
                    #expect(try await scanner.pauseDiscovery(on: adapter) == false, "already paused")
                    try await BlueZClient.withClient(bus: mock.busAddress, timeouts: fast) { connector in
                        try await connector.withConnectedDevice(device) { _ in }
                    }
                    try await scanner.resumeDiscovery(on: adapter)
                    try await scanner.resumeDiscovery(on: adapter)
                }
                try await scanner.resumeDiscovery(on: adapter)
            }
            let discovery = ["SetDiscoveryFilter", "StartDiscovery", "StopDiscovery", "Connect"]
            #expect(
                try mock.calledMethods().filter(discovery.contains) == [
                    "SetDiscoveryFilter", "StartDiscovery", "StopDiscovery", "Connect", "StartDiscovery",
                    "StopDiscovery", "SetDiscoveryFilter",
                ])
        }
    }

    /// A search of its own while the lane's discovery is paused (a reconnect that removed the device and
    /// finds it again) hands the adapter back: the paused discovery still resumes afterwards.
    @Test func aPausedDiscoveryResumesAfterASearchInsideThePause() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let adapter = try await client.adapter()
                try await client.withDiscovery(on: adapter, filter: BlueZScanFilter()) { _ in
                    try await client.pauseDiscovery(on: adapter)
                    _ = try await client.findDevice(on: adapter, filter: .bluFi, timeout: .seconds(3))
                    try await client.resumeDiscovery(on: adapter)
                }
            }
            // The search replaces the filter the pause left, so the resume sets the lane's filter again.
            let discovery = ["SetDiscoveryFilter", "StartDiscovery", "StopDiscovery"]
            #expect(
                try mock.calledMethods().filter(discovery.contains) == [
                    "SetDiscoveryFilter", "StartDiscovery", "StopDiscovery", "SetDiscoveryFilter", "StartDiscovery",
                    "StopDiscovery", "SetDiscoveryFilter", "SetDiscoveryFilter", "StartDiscovery", "StopDiscovery",
                    "SetDiscoveryFilter",
                ])
        }
    }

    /// A scope that ends while its discovery is paused still clears the filter the pause left set.
    @Test func aScopeEndingWhilePausedClearsTheFilterThePauseKept() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let adapter = try await client.adapter()
                let paused = try await client.withDiscovery(on: adapter, filter: .bluFi) { _ in
                    try await client.pauseDiscovery(on: adapter)
                }
                #expect(paused)
            }
            let discovery = ["SetDiscoveryFilter", "StartDiscovery", "StopDiscovery"]
            #expect(
                try mock.calledMethods().filter(discovery.contains) == [
                    "SetDiscoveryFilter", "StartDiscovery", "StopDiscovery", "SetDiscoveryFilter",
                ])
        }
    }

    @Test func reportsEachSightingForTheScanDuration() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            let seen = try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) {
                client in
                try await client.withDiscovery(
                    on: client.adapter(), filter: BlueZScanFilter(), duration: .milliseconds(400)
                ) {
                    devices in
                    var addresses: Set<String> = []
                    for try await device in devices { addresses.insert(device.address) }
                    return addresses
                }
            }
            #expect(seen == ["24:0A:C4:12:34:56", "C0:FF:EE:00:00:01"])
        }
    }
}

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct DaemonLossMockBusTests {
    @Test func failsWaitsAtOnceWhenBluetoothdExits() async throws {
        try await BlueZMock.with(BlueZClientMockBusTests.device()) { mock in
            try await BlueZClient.withClient(bus: mock.busAddress, timeouts: BlueZClientMockBusTests.fast) { client in
                let adapter = try await client.adapter()
                // The search would outlast the suite's time limit: only the daemon's loss can end it in time.
                let search = Task {
                    try await client.findDevice(
                        on: adapter, filter: BlueZScanFilter(namePrefix: "NOPE"), timeout: .seconds(600))
                }
                try await Task.sleep(for: .milliseconds(200))
                mock.process.send(signal: SIGKILL)
                let error = await #expect(throws: BlueZError.self) { try await search.value }
                guard case .bluetoothdNotRunning = error else {
                    Issue.record("expected bluetoothdNotRunning, got \(String(describing: error))")
                    return
                }
            }
        }
    }
}
