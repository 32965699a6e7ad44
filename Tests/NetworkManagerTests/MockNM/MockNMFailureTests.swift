import NetworkManager
import TestSupport
import Testing
import Transports

/// Joins that fail, time out or are cancelled: each maps to its error and leaves the host as it was.
@Suite(.enabled(if: MockNMTools.hasNMMock, .init(rawValue: MockNM.skipMessage)))
struct MockNMFailureTests {
    @Test func mapsAWrongPassphraseToNoSecretsAndRestores() async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                try await MockNM.joiner(mock).join(MockNM.request(passphrase: "wrong-pass"))
            }
            #expect(error == .activationFailed(NMStateReason(device: 7)))
            #expect(error?.joinFailureKind == .passwordRejected)
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func reportsAHotspotThatNoScanShows() async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            await #expect(throws: NetworkManagerError.accessPointNotFound(ssid: "ZT_FFFFFF")) {
                try await MockNM.joiner(mock).join(MockNM.request(ssid: "ZT_FFFFFF", scan: .milliseconds(300)))
            }
            let state = try await mock.state()
            #expect(!state.methods.contains { $0.hasPrefix("AddAndActivate") })
            try await MockNM.expectRestored(mock)
        }
    }

    /// NetworkManager still lists a hotspot switched off after its last scan (LastScan recent, the entry
    /// there); no scan since moves its LastSeen. The join must not take the host off its network for it.
    @Test func refusesAHotspotThatNoScanSinceTheStartHasSeen() async throws {
        let gone: [String: any Sendable] = [
            "ssid": MockNM.ssid, "bssid": "24:0A:C4:1A:2B:3C", "psk": MockNM.passphrase, "seen_ago_s": 4,
            "gone": true,
        ]
        try await NMSoftAPMock.with(MockNM.parameters(["access_points": [gone]])) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                try await MockNM.joiner(mock).join(MockNM.request(scan: .milliseconds(600)))
            }
            guard case .accessPointNotSeenAgain(let ssid, let secondsAgo) = error else {
                Issue.record("expected accessPointNotSeenAgain, got \(String(describing: error))")
                return
            }
            #expect(ssid == MockNM.ssid && (4...30).contains(secondsAgo), "\(secondsAgo)")
            #expect(error?.joinFailureKind == .networkNotFound)
            let state = try await mock.state()
            #expect(state.methods.filter { $0 == "RequestScan" }.count >= 2, "rescans until the deadline")
            #expect(!state.methods.contains { $0.hasPrefix("AddAndActivate") })
            try await MockNM.expectRestored(mock)
        }
    }

    /// The lab's NetworkManager 1.42: a scan under way when the join began heard the hotspot a few seconds
    /// before it was switched off and finishes after the join asked for its own scan, moving the entry's
    /// LastSeen from 40 s back to 2 s back. The join must still not take the host off its network for it.
    @Test func refusesAHotspotThatAScanUnderWayAtTheStartHeardBeforeItWentAway() async throws {
        let gone: [String: any Sendable] = [
            "ssid": MockNM.ssid, "bssid": "24:0A:C4:1A:2B:3C", "psk": MockNM.passphrase, "seen_ago_s": 40,
            "heard_ago_s": 3, "gone": true,
        ]
        let parameters = MockNM.parameters(["access_points": [gone], "scan_running_ms": 300, "scan_ms": 200])
        try await NMSoftAPMock.with(parameters) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                try await MockNM.joiner(mock).join(MockNM.request(scan: .milliseconds(1_500)))
            }
            guard case .accessPointNotSeenAgain(_, let secondsAgo) = error else {
                Issue.record("expected accessPointNotSeenAgain, got \(String(describing: error))")
                return
            }
            // The running scan's report (heard 3 s before the mock started), not the listing from 40 s back.
            #expect((2..<40).contains(secondsAgo), "\(secondsAgo) s ago")
            let state = try await mock.state()
            #expect(!state.methods.contains { $0.hasPrefix("AddAndActivate") })
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func mapsSSIDNotFoundDuringActivationToNetworkNotFound() async throws {
        let openHotspot: [String: any Sendable] = [
            "ssid": MockNM.ssid, "bssid": "24:0A:C4:1A:2B:3C", "psk": nil as String?,
        ]
        try await NMSoftAPMock.with(MockNM.parameters(["access_points": [openHotspot], "not_found_steps": 2])) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                try await MockNM.joiner(mock).join(MockNM.request())
            }
            #expect(error == .activationFailed(NMStateReason(device: 53)))
            #expect(error?.joinFailureKind == .networkNotFound)
            try await MockNM.expectRestored(mock)
        }
    }

    /// Activation takes three mock steps; they are long (4.5 s in all) so the cancel lands mid-activation
    /// even when a loaded machine wakes this test's poll late.
    @Test func restoresWhenTheJoinIsCancelledMidActivation() async throws {
        try await NMSoftAPMock.with(MockNM.parameters(["step_ms": 1500])) { mock in
            let joiner = try MockNM.joiner(mock)
            let join = Task { try await joiner.join(MockNM.request(activation: .seconds(60), restore: .seconds(60))) }
            while try await !mock.state().activationStarted { try await Task.sleep(for: .milliseconds(10)) }
            join.cancel()
            await #expect(throws: CancellationError.self) { try await join.value }
            try await MockNM.expectRestored(mock)
        }
    }

    /// The mock fails an open hotspot joined with a passphrase only after `not_found_steps`, long
    /// after the deadline, so the deadline is what ends the join.
    @Test func restoresWhenActivationMissesItsDeadline() async throws {
        let openHotspot: [String: any Sendable] = [
            "ssid": MockNM.ssid, "bssid": "24:0A:C4:1A:2B:3C", "psk": nil as String?,
        ]
        let parameters = MockNM.parameters(["access_points": [openHotspot], "not_found_steps": 200])
        try await NMSoftAPMock.with(parameters) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                // Long enough for the bus connect, which the same limit bounds, on a loaded machine.
                try await MockNM.joiner(mock).join(MockNM.request(activation: .seconds(3)))
            }
            #expect(error?.joinFailureKind == .timedOut)
            try await MockNM.expectRestored(mock)
        }
    }

    @Test(arguments: [
        (
            "/org/freedesktop/NetworkManager/Devices/1", "org.freedesktop.NetworkManager.Device.Wireless",
            "RequestScan",
            "a{sv}", "a Wi-Fi scan"
        ),
        (
            "/org/freedesktop/NetworkManager", "org.freedesktop.NetworkManager", "AddAndActivateConnection2",
            "a{sa{sv}}ooa{sv}", "AddAndActivateConnection2"
        ),
    ])
    func mapsAPolkitRefusalToPermissionDenied(
        path: String, interface: String, method: String, signature: String, operation: String
    ) async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            try await mock.failMethod(
                path: path, interface: interface, method: method, inSignature: signature,
                errorName: "org.freedesktop.NetworkManager.PermissionDenied")
            let error = await #expect(throws: NetworkManagerError.self) {
                try await MockNM.joiner(mock).join(MockNM.request())
            }
            #expect(error == .permissionDenied(operation: operation, message: "refused by the test"))
            #expect(error?.joinFailureKind == .permissionDenied)
            try await MockNM.expectRestored(mock)
        }
    }

    @Test func namesAMissingInterface() async throws {
        try await NMSoftAPMock.with(MockNM.parameters()) { mock in
            let joiner = try NMSoftAPJoiner(configuration: .init(interfaceName: "wlan9", busAddress: mock.bus.address))
            await #expect(throws: NetworkManagerError.wifiDeviceNotFound(interface: "wlan9")) {
                try await joiner.join(MockNM.request())
            }
        }
    }
}

/// Hosts where NetworkManager cannot be used at all; these need only dbus-daemon.
@Suite(.enabled(if: MockNMTools.hasBus, "needs dbus-daemon and dbus-send"))
struct MockNMServiceTests {
    @Test func reportsNetworkManagerNotRunning() async throws {
        try await PrivateSystemBus.with { bus in
            let joiner = try NMSoftAPJoiner(configuration: .init(busAddress: bus.address))
            await #expect(throws: NetworkManagerError.notRunning) { try await joiner.join(MockNM.request()) }
        }
    }

    @Test func reportsAnUnreachableBus() async throws {
        let joiner = try NMSoftAPJoiner(configuration: .init(busAddress: "unix:path=/nonexistent/ztprov/bus_socket"))
        let error = await #expect(throws: NetworkManagerError.self) { try await joiner.join(MockNM.request()) }
        #expect(error?.joinFailureKind == .serviceUnavailable)
    }
}
