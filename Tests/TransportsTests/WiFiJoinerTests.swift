import Testing
import Transports

@Suite struct WiFiJoinerTests {
    /// Records what a flow asked of it; `join` can be made to fail.
    actor RecordingJoiner: WiFiJoiner {
        private(set) var events: [String] = []
        var joinError: (any Error)?

        func failJoins(with error: any Error) {
            joinError = error
        }

        func join(_ request: WiFiJoinRequest) async throws -> JoinedWiFiNetwork {
            events.append("join \(request.ssid)")
            if let joinError { throw joinError }
            return JoinedWiFiNetwork(
                interfaceName: "wlan0", ssid: request.ssid, bssid: "24:0A:C4:1A:2B:3C",
                localAddress: "192.168.4.2", prefixLength: 24, gateway: "192.168.4.1")
        }

        func leave(_ network: JoinedWiFiNetwork) async throws {
            events.append("leave \(network.ssid)\(Task.isCancelled ? " (cancelled)" : "")")
        }
    }

    struct BodyFailed: Error {}

    static let request = WiFiJoinRequest(ssid: "ZT_1A2B3C", passphrase: "hotspot-pass")

    @Test func leavesAfterTheBodySucceeds() async throws {
        let joiner = RecordingJoiner()
        let gateway = try await joiner.withJoinedNetwork(Self.request) { $0.gateway }
        #expect(gateway == "192.168.4.1")
        #expect(await joiner.events == ["join ZT_1A2B3C", "leave ZT_1A2B3C"])
    }

    @Test func leavesAndRethrowsWhenTheBodyThrows() async {
        let joiner = RecordingJoiner()
        await #expect(throws: BodyFailed.self) {
            try await joiner.withJoinedNetwork(Self.request) { _ in throw BodyFailed() }
        }
        #expect(await joiner.events == ["join ZT_1A2B3C", "leave ZT_1A2B3C"])
    }

    @Test func leavesWhenTheTaskIsCancelledInTheBody() async {
        let joiner = RecordingJoiner()
        let task = Task {
            try await joiner.withJoinedNetwork(Self.request) { _ in
                try await Task.sleep(for: .seconds(60))
            }
        }
        while await joiner.events.isEmpty { await Task.yield() }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await joiner.events == ["join ZT_1A2B3C", "leave ZT_1A2B3C (cancelled)"])
    }

    @Test func doesNotLeaveWhatItNeverJoined() async {
        let joiner = RecordingJoiner()
        await joiner.failJoins(with: BodyFailed())
        await #expect(throws: BodyFailed.self) {
            try await joiner.withJoinedNetwork(Self.request) { _ in }
        }
        #expect(await joiner.events == ["join ZT_1A2B3C"])
    }

    @Test func keepsThePassphraseOutOfDescriptions() {
        let request = WiFiJoinRequest(ssid: "ZT_1A2B3C", passphrase: "hotspot-pass")
        #expect(!"\(request)".contains("hotspot-pass"))
        #expect(!String(reflecting: request).contains("hotspot-pass"))
        var dumped = ""
        dump(request, to: &dumped)
        #expect(!dumped.contains("hotspot-pass"))
        #expect("\(request)" == "WiFiJoinRequest(ssid: ZT_1A2B3C, secured: true, bssid: any)")
    }
}
