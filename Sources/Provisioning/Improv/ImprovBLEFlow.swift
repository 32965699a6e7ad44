public import Improv
public import Logging
public import Records

/// Improv as a ``BLEProvisioningFlow``. Its settings are built once the device is known, since device info
/// is asked for only when the device advertises it can answer.
public struct ImprovBLEFlow: BLEProvisioningFlow {
    public static var bleProtocol: BLEProtocol { .improv }

    let settings: @Sendable (_ advertisedCapabilities: ImprovCapabilities?) throws(ProvisioningError) -> ImprovSettings
    let timeouts: ImprovTimeouts
    let minimumSecurity: SecurityLevel
    let logger: Logger
    let progress: @Sendable (ImprovProgress) -> Void

    public init(
        settings:
            @escaping @Sendable (_ advertisedCapabilities: ImprovCapabilities?) throws(ProvisioningError)
            -> ImprovSettings,
        timeouts: ImprovTimeouts, minimumSecurity: SecurityLevel = .none, logger: Logger,
        progress: @escaping @Sendable (ImprovProgress) -> Void
    ) {
        self.settings = settings
        self.timeouts = timeouts
        self.minimumSecurity = minimumSecurity
        self.logger = logger
        self.progress = progress
    }

    public var connectionPolicy: BLEConnectionPolicy {
        BLEConnectionPolicy(requiredServices: [Self.bleProtocol.serviceUUID])
    }

    /// The Improv state and capabilities `peer` advertises, if its service data is readable.
    public static func advertised(by peer: BLEPeer) -> ImprovServiceData? {
        let key = bleProtocol.serviceDataUUIDs.first ?? ""
        return peer.serviceData[key].flatMap { try? ImprovServiceData.decode($0) }
    }

    public func run(with link: any BLELink, deadline: ContinuousClock.Instant) async throws
        -> ImprovProvisioningOutcome
    {
        let advertised = Self.advertised(by: link.peer)
        // Improv sends the settings in plaintext over a link it does not ask to encrypt: it is refused before
        // connecting whenever the floor is above none, authorization or not.
        let asksAuthorization = advertised?.state == .authorizationRequired
        try minimumSecurity.admit(ProvisioningSecurity(asksAuthorization ? .improvAuthorized : .improv))
        let settings = try settings(advertised?.capabilities)
        let (timeouts, logger, progress) = (timeouts, logger, progress)
        return try await link.connected(connectionPolicy) { connection in
            try await ImprovProvisioner(connection: connection, timeouts: timeouts, logger: logger)
                .run(settings, deadline: deadline, progress: progress)
        }
    }
}
