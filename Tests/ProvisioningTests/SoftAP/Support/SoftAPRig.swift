import CryptoPrimitives
import DeviceEmulator
import Protocomm
import Provisioning
import Synchronization
import Testing
import Transports

/// One emulated SoftAP device, the host's in-memory Wi-Fi, and the flow between them, with every
/// limit short so the fault paths finish fast.
struct SoftAPRig {
    static let hotspotSSID = "MH-1A2B3C"
    static let hotspotBSSID = "24:0A:C4:1A:2B:3C"
    static let deviceID = "240ac41a2b3c"
    static let homeNetwork = "HomeNet"
    static let targetSSID = "HomeNet"

    /// Distinctive values, so a leak anywhere in the output is easy to find.
    enum Secrets {
        static let proofOfPossession = "pop-S3CRET-4711"
        static let srpPassword = "srp-S3CRET-0815"
        static let wifiPassphrase = "wifi-S3CRET-1234"
        static let hotspotPassword = "ap-S3CRET-9876"
        static let all = [proofOfPossession, srpPassword, wifiPassphrase, hotspotPassword]
    }

    static let srpUsername = "wifiprov"
    static let salt: [UInt8] = Array(0x20...0x2f)
    static let verifier = ProtocommSecurity2Verifier(
        username: srpUsername, password: Secrets.srpPassword, salt: salt)

    /// Limits that keep fault paths fast; none is reached on a path that works.
    static let fastTimeouts = SoftAPTimeouts(
        join: WiFiJoinRequest.Timeouts(scan: .seconds(5), activation: .milliseconds(20), restore: .seconds(5)),
        protocomm: ProtocommTimeouts(
            exchange: .seconds(10), scan: .seconds(10), connect: .seconds(10), statusPollInterval: .milliseconds(1))
    )

    let device: EmulatedProtocommDevice
    let joiner: InMemoryWiFiJoiner
    let provisioner: SoftAPProvisioner
    let log = SoftAPProgressLog()

    init(
        _ configuration: ProtocommDeviceConfiguration,
        hotspotPassword: String? = nil,
        deviceFaults: [ProtocommTransportFault] = [],
        joinerFaults: [InMemoryWiFiJoiner.Fault] = [],
        timeouts: SoftAPTimeouts = fastTimeouts
    ) {
        let device = EmulatedProtocommDevice(
            configuration: configuration, random: SeededRandomSource(seed: [2]), faults: deviceFaults)
        let hotspot = InMemoryWiFiJoiner.Hotspot(
            ssid: Self.hotspotSSID, passphrase: hotspotPassword, bssid: Self.hotspotBSSID)
        self.device = device
        joiner = InMemoryWiFiJoiner(activeConnection: Self.homeNetwork, hotspots: [hotspot], faults: joinerFaults)
        provisioner = SoftAPProvisioner(
            joiner: joiner, timeouts: timeouts, random: SeededRandomSource(seed: [1])
        ) { _, _ in await device.connect() }
    }

    /// A request with every secret the devices here use, so each scheme finds what it needs.
    static func request(
        security: ProtocommSecurityOptions = allCredentials,
        hotspotPassword: String? = nil,
        ssid: String = targetSSID,
        passphrase: String = Secrets.wifiPassphrase,
        listsNetworks: Bool = false
    ) -> SoftAPProvisioningRequest {
        SoftAPProvisioningRequest(
            hotspot: SoftAPHotspot(ssid: hotspotSSID, password: hotspotPassword.map(Secret.init)),
            device: DeviceEndpoint(127, 0, 0, 1, port: 8080),
            network: ProtocommTargetNetwork(ssid: ssid, passphrase: Secret(passphrase)),
            security: security,
            listsNetworks: listsNetworks)
    }

    static let allCredentials = ProtocommSecurityOptions(
        proofOfPossession: Secret(Secrets.proofOfPossession), srpUsername: srpUsername,
        srpPassword: Secret(Secrets.srpPassword))

    /// Runs the flow and checks that no secret reached the progress events or the error.
    func run(
        _ request: SoftAPProvisioningRequest = request(), deadline: Duration = .seconds(30)
    ) async throws -> SoftAPProvisioningOutcome {
        do {
            let outcome = try await provisioner.run(request, deadline: .now + deadline, progress: log.sink)
            expectNoSecrets(in: [String(reflecting: outcome)])
            return outcome
        } catch {
            expectNoSecrets(in: Self.renderings(of: error))
            throw error
        }
    }

    /// Runs the flow expecting a ``ProvisioningError`` and returns it.
    func failure(_ request: SoftAPProvisioningRequest = request(), deadline: Duration = .seconds(30))
        async throws -> ProvisioningError
    {
        do {
            let outcome = try await run(request, deadline: deadline)
            Issue.record("expected a failure, got \(outcome)")
            throw RigError.unexpectedSuccess
        } catch let error as ProvisioningError {
            return error
        }
    }

    /// The host is back on its previous network and never kept the hotspot.
    func expectRestored(sourceLocation: SourceLocation = #_sourceLocation) async {
        #expect(await joiner.activeConnection == Self.homeNetwork, sourceLocation: sourceLocation)
        #expect(await !joiner.isOnHotspot, sourceLocation: sourceLocation)
        let events = await joiner.events
        if events.contains(.joined(ssid: Self.hotspotSSID)) {
            #expect(
                Array(events.suffix(2)) == [.left(ssid: Self.hotspotSSID), .restored(previous: Self.homeNetwork)],
                sourceLocation: sourceLocation)
        }
    }

    func expectNoSecrets(in texts: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let all = texts + log.events.flatMap(Self.renderings(of:))
        for text in all {
            for secret in Secrets.all {
                #expect(!text.contains(secret), "secret leaked: \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    private static func renderings(of value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return ["\(value)", String(reflecting: value), dumped]
    }

    enum RigError: Error {
        case unexpectedSuccess
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
