// Rules of this client (the app behaviour they follow is in zhiting-tech/sa-ios-sdk's `UDPDeviceTool.swift`
// and zhiting-tech/smartassistant-android):
// - One client talks to one device: datagrams from any other device ID are ignored, never fatal,
//   because every device and client on the LAN shares port 54321.
// - The first payload-bearing packet from the device after the token request is taken as the
//   token reply, as both apps do; the reply is recognised by state, not by its header.
// - Every later reply is routed by its JSON-RPC `id` alone. Replies that do not decrypt, are not
//   JSON or carry another id are ignored, so a stray or spoofed datagram cannot end the session.
// - A set_prop.server counts as done only when the result echoes the server and port sent (iOS).

/// The client side of one device's hand-off: token exchange, `get_prop.info`, then optionally
/// `set_prop.server`, as packets to send and received datagrams in (sans-I/O).
///
/// The caller sends ``start()``, feeds every datagram from the device's address to
/// ``receivedDatagram(_:)`` and sends whatever the returned ``Step`` asks for. When a reply is
/// overdue it resends ``pendingRequest`` (identical bytes, so a late first reply still matches).
public struct ZhitingLANClient: Sendable {
    /// What the session is for.
    public enum Goal: Sendable, Equatable {
        /// Stop after `get_prop.info` (discovery).
        case readInfo
        /// Continue with `set_prop.server` (the hand-off).
        case assignServer(ZhitingServerAssignment)
    }

    /// Which reply the client waits for.
    public enum Phase: Sendable, Equatable {
        case idle
        case awaitingToken
        case awaitingInfo
        case awaitingConfirmation
        case finished
    }

    public let deviceID: ZhitingDeviceID
    public let sessionKey: ZhitingSessionKey
    public let goal: Goal
    public let framing: ZhitingRequestFraming
    public internal(set) var phase: Phase = .idle
    /// The last datagram sent that still awaits its reply; resend it when the reply is overdue.
    public internal(set) var pendingRequest: [UInt8]?

    var token: ZhitingToken?
    var nextRequestID: Int
    var pendingRequestID: Int?

    /// A client for `deviceID`, with a fresh `sessionKey` from ``ZhitingSessionKey/random(using:)``.
    ///
    /// Request ids count up from `firstRequestID`.
    public init(
        deviceID: ZhitingDeviceID,
        sessionKey: ZhitingSessionKey,
        goal: Goal,
        framing: ZhitingRequestFraming = ZhitingRequestFraming(),
        firstRequestID: Int = 1
    ) {
        self.deviceID = deviceID
        self.sessionKey = sessionKey
        self.goal = goal
        self.framing = framing
        nextRequestID = firstRequestID
    }

    /// The token request: reserved `fffe`, the ASCII session key in the checksum field, no payload.
    public mutating func start() -> [UInt8] {
        let request = ZhitingPacket(
            reserved: ZhitingPacket.tokenRequestReserved,
            deviceID: deviceID,
            checksumField: sessionKey.bytes
        ).encoded()
        phase = .awaitingToken
        pendingRequest = request
        return request
    }

    /// Reads one datagram from the device's address and says what to do next.
    ///
    /// Throws only for what ends the session: the device refused, or answered the hand-off wrongly.
    public mutating func receivedDatagram(_ datagram: [UInt8]) throws(ZhitingLANError) -> Step {
        guard phase != .idle else { throw .clientNotStarted }
        let packet: ZhitingPacket
        do {
            packet = try ZhitingPacket(decoding: datagram)
        } catch {
            return .ignored(.malformed(error))
        }
        guard packet.deviceID != .broadcast else { return .ignored(.hello) }
        guard packet.deviceID == deviceID else { return .ignored(.otherDevice(packet.deviceID)) }
        switch phase {
        case .awaitingToken:
            return receivedTokenReply(packet)
        case .awaitingInfo, .awaitingConfirmation:
            return try receivedReply(packet)
        case .idle, .finished:
            return .ignored(.afterFinish)
        }
    }
}
