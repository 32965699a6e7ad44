public import BluFi
public import Logging
public import Records

/// BluFi as a ``BLEProvisioningFlow``: the settings sent with the chosen security, falling back to V1 on
/// a fresh connection when automatic security met a device that rejects V2.
public struct BluFiBLEFlow: BLEProvisioningFlow {
    public static var bleProtocol: BLEProtocol { .bluFi }

    let settings: WiFiSettings
    let security: BluFiSecurityChoice
    let minimumSecurity: SecurityLevel
    let timeouts: BluFiTimeouts
    let logger: Logger
    let progress: BluFiProgressSink

    public init(
        _ settings: WiFiSettings, security: BluFiSecurityChoice, minimumSecurity: SecurityLevel = .none,
        timeouts: BluFiTimeouts = BluFiTimeouts(), logger: Logger, progress: @escaping BluFiProgressSink
    ) {
        self.settings = settings
        self.security = security
        self.minimumSecurity = minimumSecurity
        self.timeouts = timeouts
        self.logger = logger
        self.progress = progress
    }

    public var connectionPolicy: BLEConnectionPolicy {
        BLEConnectionPolicy(requiredServices: [Self.bleProtocol.serviceUUID])
    }

    public func run(with link: any BLELink, deadline: ContinuousClock.Instant) async throws
        -> BluFiProvisioningOutcome
    {
        try await BluFiProvisioner.runFallingBack(
            settings, security: security, timeouts: timeouts, minimumSecurity: minimumSecurity, logger: logger,
            deadline: deadline, progress: progress
        ) { session in
            try await link.connected(connectionPolicy) { try await session($0) }
        }
    }
}
