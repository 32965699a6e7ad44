import NetworkManager
import Testing
import Transports

/// Joins that fail, time out or are cancelled: each maps to its error and leaves the host as it was.
@Suite(.enabled(if: LiveTools.hasNMMock, .init(rawValue: LiveNM.skipMessage)))
struct LiveFailureTests {
    @Test func mapsAWrongPassphraseToNoSecretsAndRestores() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters()) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                try await LiveNM.joiner(mock).join(LiveNM.request(passphrase: "wrong-pass"))
            }
            #expect(error == .activationFailed(NMStateReason(device: 7)))
            #expect(error?.joinFailureKind == .passwordRejected)
            try LiveNM.expectRestored(mock)
        }
    }

    @Test func reportsAHotspotThatNoScanShows() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters()) { mock in
            await #expect(throws: NetworkManagerError.accessPointNotFound(ssid: "ZT_FFFFFF")) {
                try await LiveNM.joiner(mock).join(LiveNM.request(ssid: "ZT_FFFFFF", scan: .milliseconds(300)))
            }
            let state = try mock.state()
            #expect(!state.methods.contains { $0.hasPrefix("AddAndActivate") })
            try LiveNM.expectRestored(mock)
        }
    }

    @Test func restoresWhenTheJoinIsCancelledMidActivation() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters(["step_ms": 200])) { mock in
            let joiner = LiveNM.joiner(mock)
            let join = Task { try await joiner.join(LiveNM.request()) }
            while try !mock.state().activationStarted { try await Task.sleep(for: .milliseconds(10)) }
            join.cancel()
            await #expect(throws: CancellationError.self) { try await join.value }
            try LiveNM.expectRestored(mock)
        }
    }

    @Test func restoresWhenActivationMissesItsDeadline() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters(["step_ms": 150])) { mock in
            let error = await #expect(throws: NetworkManagerError.self) {
                try await LiveNM.joiner(mock).join(LiveNM.request(activation: .milliseconds(200)))
            }
            #expect(error?.joinFailureKind == .timedOut)
            try LiveNM.expectRestored(mock)
        }
    }

    @Test func namesAMissingInterface() async throws {
        try await NMSoftAPMock.with(LiveNM.parameters()) { mock in
            let joiner = NMSoftAPJoiner(configuration: .init(interfaceName: "wlan9", busAddress: mock.bus.address))
            await #expect(throws: NetworkManagerError.wifiDeviceNotFound(interface: "wlan9")) {
                try await joiner.join(LiveNM.request())
            }
        }
    }
}

/// Hosts where NetworkManager cannot be used at all; these need only dbus-daemon.
@Suite(.enabled(if: LiveTools.hasBus, "needs dbus-daemon"))
struct LiveServiceTests {
    @Test func reportsNetworkManagerNotRunning() async throws {
        let bus = try await PrivateSystemBus.start()
        defer { bus.stop() }
        let joiner = NMSoftAPJoiner(configuration: .init(busAddress: bus.address))
        await #expect(throws: NetworkManagerError.notRunning) { try await joiner.join(LiveNM.request()) }
    }

    @Test func reportsAnUnreachableBus() async throws {
        let joiner = NMSoftAPJoiner(configuration: .init(busAddress: "unix:path=/nonexistent/ztprov/bus_socket"))
        let error = await #expect(throws: NetworkManagerError.self) { try await joiner.join(LiveNM.request()) }
        #expect(error?.joinFailureKind == .serviceUnavailable)
    }
}
