import DeviceEmulator
import Protocomm
import Provisioning
import Sockets
import Synchronization
import TestSupport
import Testing
import Transports

/// The SoftAP flow over the real HTTP transport against the harness's device, an implementation of
/// protocomm written apart from ours: the schemes interoperate, and the transport's own errors
/// (a dropped connection, a 404) reach the user as the right codes.
@Suite(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness/device_host.py and /usr/bin/python3"))
struct SoftAPOverHTTPTests {
    static let hotspot = InMemoryWiFiJoiner.Hotspot(ssid: "MH-1A2B3C", bssid: "24:0a:c4:1a:2b:3c")
    static let credentials = ProtocommSecurityOptions(
        proofOfPossession: Secret("abcd1234"), srpUsername: "wifiprov", srpPassword: Secret("abcd1234"))

    /// Starts a device with these `protocomm` settings on top of fast defaults.
    static func device(_ settings: [String: any Sendable]) async throws -> HarnessDeviceHost {
        let fast: [String: any Sendable] = [
            "connecting_polls": 1, "scan_duration_ms": 0,
            "networks": [["ssid": "HomeNet", "rssi": -40] as [String: any Sendable]],
        ]
        return try await HarnessDeviceHost.start(deviceHost: ["protocomm": fast.merging(settings) { $1 }])
    }

    static func run(
        against host: HarnessDeviceHost, joiner: InMemoryWiFiJoiner, security: ProtocommSecurityOptions = credentials,
        listsNetworks: Bool = false, progress: @escaping SoftAPProgressSink = { _ in }
    ) async throws -> SoftAPProvisioningOutcome {
        let provisioner = SoftAPProvisioner(
            joiner: joiner,
            timeouts: SoftAPTimeouts(protocomm: ProtocommTimeouts(statusPollInterval: .milliseconds(20)))
        ) { _, device in
            HTTPProtocommTransport(device: device, connectTimeout: .seconds(2))
        }
        let request = SoftAPProvisioningRequest(
            hotspot: SoftAPHotspot(ssid: hotspot.ssid), device: try host.endpoint,
            network: ProtocommTargetNetwork(ssid: "HomeNet", passphrase: Secret("home-passphrase")),
            security: security, listsNetworks: listsNetworks)
        return try await provisioner.run(request, deadline: .now + .seconds(30), progress: progress)
    }

    @Test(arguments: [(0, 0), (1, 0), (2, 0), (2, 1)])
    func provisionsEachScheme(security: Int, patch: Int) async throws {
        let host = try await Self.device(["security": security, "sec2_patch": patch])
        let joiner = InMemoryWiFiJoiner(hotspots: [Self.hotspot])
        let outcome = try await Self.run(against: host, joiner: joiner, listsNetworks: true)
        #expect(outcome.security.level.rawValue == security)
        #expect(outcome.connection.ipAddress == "192.168.1.50")
        #expect(outcome.networks?.compactMap(\.ssidText) == ["HomeNet"])
        #expect(outcome.deviceID == "240ac41a2b3c")
        #expect(await joiner.activeConnection == "HomeNet")
    }

    @Test func aWrongProofOfPossessionIsWrongPoP() async throws {
        let host = try await Self.device(["security": 1, "pop": "the-devices-pop"])
        let joiner = InMemoryWiFiJoiner(hotspots: [Self.hotspot])
        let error = await #expect(throws: ProvisioningError.self) { try await Self.run(against: host, joiner: joiner) }
        #expect(error?.code == .wrongPoP)
        #expect(await joiner.activeConnection == "HomeNet")
    }

    @Test func aWrongSRPPasswordIsWrongPoP() async throws {
        let host = try await Self.device(["security": 2, "srp_password": "another-password"])
        let joiner = InMemoryWiFiJoiner(hotspots: [Self.hotspot])
        let error = await #expect(throws: ProvisioningError.self) { try await Self.run(against: host, joiner: joiner) }
        #expect(error?.code == .wrongPoP)
    }

    @Test func theDevicesJoinFailureIsReportedAndTheDeviceReset() async throws {
        let host = try await Self.device(["security": 1, "wifi_outcome": "auth-error"])
        let joiner = InMemoryWiFiJoiner(hotspots: [Self.hotspot])
        let log = SoftAPProgressLog()
        let error = await #expect(throws: ProvisioningError.self) {
            try await Self.run(against: host, joiner: joiner, progress: log.sink)
        }
        #expect(error?.code == .protocommWiFiWrongPassword)
        #expect(log.events.contains(.protocomm(.deviceReset)))
    }

    @Test func firmwareWithoutControlEndpointAnswers404ToTheReset() async throws {
        let host = try await Self.device(["security": 2, "wifi_outcome": "not-found", "ctrl_endpoint": false])
        let joiner = InMemoryWiFiJoiner(hotspots: [Self.hotspot])
        let log = SoftAPProgressLog()
        let error = await #expect(throws: ProvisioningError.self) {
            try await Self.run(against: host, joiner: joiner, progress: log.sink)
        }
        #expect(error?.code == .protocommWiFiNotFound)
        #expect(log.events.contains(.protocomm(.deviceResetUnavailable)))
        let paths = try host.records(event: "http_request").compactMap { $0["path"] as? String }
        // The reset is tried after the failed join; the scan that explains the failure may follow it.
        let afterJoin = paths.lastIndex(of: "/prov-config").map { paths[$0...] } ?? []
        #expect(afterJoin.contains("/prov-ctrl"), "\(paths)")
    }
}

/// Collects the flow's progress events from any task.
final class SoftAPProgressLog: Sendable {
    private let recorded = Mutex<[SoftAPProgress]>([])

    var events: [SoftAPProgress] { recorded.withLock { $0 } }

    var sink: SoftAPProgressSink {
        { event in self.recorded.withLock { $0.append(event) } }
    }
}
