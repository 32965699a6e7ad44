public import CryptoPrimitives

/// The phone side of a BluFi session as a sans-I/O state machine: events in, ``Action``s out.
///
/// Rules of this file and its extensions:
/// 1. One `mutating` method per event (`connected`, `receivedNotification`, `deadlinePassed`,
///    `disconnected`) or request (`requested…`). Each returns the actions to carry out, in order.
/// 2. Peer violations and failed outcomes come back as ``Action/fail(_:)``; the session is then over
///    (only ``requestedDisconnect()`` is still accepted). Misuse by the caller is thrown instead.
/// 3. No clock: every wait is announced with ``Action/wait(for:)``; the caller owns the deadline.
/// 4. Randomness comes from the injected source, so a session replays byte for byte.
///
/// The flow: `connected(mtu:)` sends GET_VERSION; the answer picks the security scheme; the session
/// negotiates keys and reports ``BluFiClientEvent/sessionReady``. Then ``requestedProvisioning(_:)``
/// runs SET_OPMODE (with ACK) → station/SoftAP fields → CONNECT_AP → status polling → device ID.
public struct BluFiClient: Sendable {
    enum Phase: Sendable {
        case disconnected
        case awaitingVersion
        case awaitingDevicePublicKey(DHKeyPair)
        case ready
        case awaitingAcknowledgement(sequence: UInt8, BluFiProvisioningRequest)
        case awaitingWiFiConnection(BluFiProvisioningRequest)
        case awaitingSoftAPStatus(BluFiProvisioningRequest)
        case awaitingDeviceID(BluFiProvisioningRequest, BluFiWiFiReport)
        case awaitingWiFiStatus
        case awaitingWiFiList
        case finished
        case failed(BluFiError)
    }

    /// How the scheme is chosen: by the device version or fixed by the user.
    public let securityChoice: BluFiSecurityChoice
    /// The version the device answered, once it did.
    public internal(set) var deviceVersion: BluFiVersion?
    /// The negotiated scheme, once settled.
    public internal(set) var securityScheme: BluFiSecurityScheme?
    var phase: Phase = .disconnected
    var random: any RandomSource
    /// Key pairs drawn before the session (``BluFiSecurityChoice/drawKeyPairs(using:)``), so that no
    /// exponentiation runs between the version reply and the key exchange: the negotiation takes the one in
    /// its group instead of drawing, and each serves one session only.
    public var keyPairsDrawnAhead: [DHKeyPair] = []
    var encoder = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: nil)
    var decoder = BluFiFrameDecoder()
    /// The first custom data of the session: the device ID, by the Zhiting convention.
    var firstCustomData: [UInt8]?

    /// A client that stays idle until ``connected(mtu:)``; `random` supplies the DH private exponent.
    public init(security: BluFiSecurityChoice = .automatic, random: some RandomSource) {
        securityChoice = security
        self.random = random
    }

    /// What the session waits for now; `nil` when it is ready for a request or over.
    public var awaitedReply: BluFiAwaitedReply? {
        switch phase {
        case .awaitingVersion: .version
        case .awaitingDevicePublicKey: .devicePublicKey
        case .awaitingAcknowledgement: .acknowledgement
        case .awaitingWiFiConnection: .wifiConnection
        case .awaitingSoftAPStatus: .softAPStatus
        case .awaitingDeviceID(let request, _): request.deviceID == .required ? .deviceID : .optionalDeviceID
        case .awaitingWiFiStatus: .wifiStatus
        case .awaitingWiFiList: .wifiList
        case .disconnected, .ready, .finished, .failed: nil
        }
    }

    /// Whether a request would be accepted now.
    public var isReady: Bool {
        if case .ready = phase { true } else { false }
    }

    // MARK: Link events

    /// The link is up and notifications on FF02 are enabled: start a fresh session and ask for the version.
    ///
    /// Sequence numbers restart at 0 and keys are dropped. `mtu` is the ATT MTU, `nil` if unknown.
    public mutating func connected(mtu: Int?) -> [Action] {
        encoder = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: mtu)
        decoder = BluFiFrameDecoder()
        deviceVersion = nil
        securityScheme = nil
        firstCustomData = nil
        phase = .awaitingVersion
        return attempt { client throws(BluFiError) in
            try client.send(.getVersion) + [.wait(for: .version)]
        }
    }

    /// One notification from FF02: exactly one frame.
    public mutating func receivedNotification(_ bytes: [UInt8]) -> [Action] {
        guard isActive else { return [] }
        return attempt { client throws(BluFiError) in
            let frame = try client.decoder.decodeFrame(bytes)
            var actions: [Action] = []
            if frame.control.contains(.acknowledgementRequired) {
                actions += try client.send(.ack, [frame.sequence], control: client.sessionControl)
            }
            guard let message = try client.decoder.reassemble(frame) else { return actions }
            return actions + (try client.handle(message))
        }
    }

    /// The timeout of the current ``Action/wait(for:)`` fired.
    public mutating func deadlinePassed() -> [Action] {
        switch phase {
        case .awaitingVersion:
            return attempt { client throws(BluFiError) in
                [.report(.versionUnavailable)] + (try client.startSecurity())
            }
        case .awaitingWiFiList:
            phase = .ready
            return [.report(.wifiListReceived([]))]
        case .awaitingDeviceID(let request, let report) where request.deviceID != .required:
            return attempt { client throws(BluFiError) in
                [.report(.deviceIDMissing)]
                    + (try client.completeProvisioning(request, report: report, graceOver: true))
            }
        default:
            guard let awaitedReply else { return [] }
            return fail(.timedOut(awaitedReply))
        }
    }

    /// The link dropped: expected after ``Action/finished``, a failure at any other point.
    public mutating func disconnected() -> [Action] {
        if case .finished = phase { return [] }
        let wasActive = isActive
        phase = .disconnected
        return wasActive ? [.fail(.linkLost)] : []
    }

    // MARK: Helpers for the extensions

    /// Frame options after negotiation: checksum and encryption; nothing before or without security.
    var sessionControl: BluFiFrameControl {
        encoder.hasCipher ? [.checksum, .encrypted] : []
    }

    var isActive: Bool {
        switch phase {
        case .disconnected, .finished, .failed: false
        default: true
        }
    }

    /// Encodes one message as write actions.
    mutating func send(
        _ type: BluFiFrameType, _ payload: [UInt8] = [], control: BluFiFrameControl = []
    ) throws(BluFiError) -> [Action] {
        try encoder.encode(BluFiMessage(type, payload), control: control).map(Action.write)
    }

    /// Runs `body`; a thrown error fails the session.
    mutating func attempt(_ body: (inout BluFiClient) throws(BluFiError) -> [Action]) -> [Action] {
        do {
            return try body(&self)
        } catch {
            return fail(error)
        }
    }

    mutating func fail(_ error: BluFiError) -> [Action] {
        phase = .failed(error)
        return [.fail(error)]
    }
}
