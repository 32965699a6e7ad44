import BluFi
import CryptoPrimitives
import DeviceEmulator
import Provisioning
import Records
import Testing

/// One emulated BluFi device behind an in-memory link, with a recorder and timeouts short enough
/// that a test which waits out a step still takes milliseconds.
struct EmulatedBLE {
    static let ssid = "Zhiting-Home"
    static let password = "pw-Sup3rSecret-77"
    static let softAPSSID = "ztprov-setup"
    static let softAPPassword = "ap-Sup3rSecret-88"
    static let deviceID = "zt-0042"

    /// Generous for every step a test expects to succeed, a fast poll, a short farewell.
    static let timeouts = BluFiTimeouts(
        version: .seconds(5),
        keyExchange: .seconds(10),
        keyExchangeV2: .seconds(10),
        acknowledgement: .seconds(5),
        wifiJoin: .seconds(10),
        softAPStart: .seconds(5),
        wifiStatus: .seconds(5),
        wifiList: .seconds(5),
        deviceID: .seconds(5),
        write: .seconds(5),
        statusPollInterval: .milliseconds(20),
        farewell: .seconds(1)
    )

    let link: InMemoryBluFiPeripheral
    let recorder: BluFiRecorder
    let security: BluFiSecurityChoice
    let minimumSecurity: SecurityLevel
    let timeouts: BluFiTimeouts

    init(
        device configuration: BluFiDeviceConfiguration = Self.device(.v1),
        mtu: Int = 185,
        security: BluFiSecurityChoice = .automatic,
        minimumSecurity: SecurityLevel = .none,
        joinDelay: Duration? = .milliseconds(30),
        faults: BluFiFaultPlan = BluFiFaultPlan(),
        timeouts: BluFiTimeouts = Self.timeouts,
        recorder: BluFiRecorder = BluFiRecorder()
    ) {
        let device = BluFiDeviceSession(configuration: configuration, random: SeededRandomSource(seed: [0xDE]))
        link = InMemoryBluFiPeripheral(device: device, mtu: mtu, joinDelay: joinDelay, faults: faults)
        self.recorder = recorder
        self.security = security
        self.minimumSecurity = minimumSecurity
        self.timeouts = timeouts
    }

    /// A stock device for `scheme`: IDF 5.x (BluFi 1.3, V1) or IDF 6 (1.4, V2), sending a Zhiting ID.
    static func device(
        _ scheme: BluFiSecurityScheme,
        outcome: BluFiWiFiOutcome = .joins,
        deviceID: String? = Self.deviceID
    ) -> BluFiDeviceConfiguration {
        BluFiDeviceConfiguration(
            version: scheme == .v2 ? BluFiVersion(major: 1, minor: 4) : BluFiVersion(major: 1, minor: 3),
            security: scheme,
            wifiOutcome: outcome,
            deviceID: deviceID,
            accessPoints: [
                BluFiAccessPoint(ssid: Array("Neighbour".utf8), rssi: -80),
                BluFiAccessPoint(ssid: Array(ssid.utf8), rssi: -45),
            ]
        )
    }

    /// The client choice that reaches `scheme` against ``device(_:outcome:deviceID:)``.
    static func choice(for scheme: BluFiSecurityScheme) -> BluFiSecurityChoice {
        scheme == .none ? .fixed(.none) : .automatic
    }

    static let station = WiFiStationSettings(ssid: ssid, password: Secret(password))
    static let softAP = BluFiSoftAPSettings(
        ssid: softAPSSID, password: Secret(softAPPassword), channel: 6, maxConnections: 3)

    func provisioner() -> BluFiProvisioner {
        var provisioner = BluFiProvisioner(
            connection: link,
            security: security,
            timeouts: timeouts,
            random: SeededRandomSource(seed: [0xC1]),
            logger: recorder.logger()
        )
        provisioner.minimumSecurity = minimumSecurity
        return provisioner
    }

    /// The overall budget only guards against a hang: a suite run in parallel with CPU-heavy ones on two
    /// cores can leave a flow unscheduled for tens of seconds, and its step limits are what the tests judge.
    func provision(
        _ settings: WiFiSettings = WiFiSettings(.station(station), expectsDeviceID: true),
        within budget: Duration = .seconds(120)
    ) async throws -> BluFiProvisioningOutcome {
        let provisioner = provisioner()
        let progress = recorder.sink
        return try await link.run {
            try await provisioner.run(settings, deadline: .now + budget, progress: progress)
        }
    }

    func listNetworks(within budget: Duration = .seconds(120)) async throws -> BluFiNetworkList {
        let provisioner = provisioner()
        let progress = recorder.sink
        return try await link.run {
            try await provisioner.listNetworks(deadline: .now + budget, progress: progress)
        }
    }

    /// The ``ProvisioningError`` `body` fails with; records an issue if it succeeds or fails otherwise.
    func failure<Value>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ body: (EmulatedBLE) async throws -> Value
    ) async -> ProvisioningError? {
        do {
            _ = try await body(self)
            Issue.record("the flow succeeded", sourceLocation: sourceLocation)
        } catch let error as ProvisioningError {
            return error
        } catch {
            Issue.record("the flow failed with \(error), not a ProvisioningError", sourceLocation: sourceLocation)
        }
        return nil
    }

    /// Whether any text the flow produced, or the error's, contains a password.
    func leaksSecret(_ error: ProvisioningError? = nil) -> Bool {
        let text = recorder.everything(with: error)
        return text.contains(Self.password) || text.contains(Self.softAPPassword)
    }
}
