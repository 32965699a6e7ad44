public import CryptoPrimitives

/// A client handshake for whichever security scheme was chosen: the loop the SoftAP flow drives.
///
/// ```swift
/// var session = try ProtocommSession(security: security, random: &random)
/// var step = ProtocommSessionStep.send(session.start())
/// while case .send(let request) = step {
///     step = try session.receive(await transport.exchange(.session, request))
/// }
/// guard case .established(var cipher) = step else { … }
/// ```
public struct ProtocommSession: Sendable {
    private var handshake: Handshake

    private enum Handshake: Sendable {
        case security0(ProtocommSecurity0Session)
        case security1(ProtocommSecurity1Session)
        case security2(ProtocommSecurity2Session)
    }

    /// Builds the handshake for `security`, drawing its ephemeral secret from `random`.
    public init(security: ProtocommSecurity, random: inout some RandomSource) throws(ProtocommError) {
        switch security {
        case .security0:
            handshake = .security0(ProtocommSecurity0Session())
        case .security1(let proofOfPossession):
            handshake = .security1(ProtocommSecurity1Session(proofOfPossession: proofOfPossession, random: &random))
        case .security2(let username, let password, let patch):
            handshake = .security2(
                try ProtocommSecurity2Session(username: username, password: password, patch: patch, random: &random))
        }
    }

    /// The scheme this handshake runs.
    public var level: ProtocommSecurityLevel {
        switch handshake {
        case .security0: .security0
        case .security1: .security1
        case .security2: .security2
        }
    }

    /// True while the device is judging our PoP or SRP proof: if it closes the connection now
    /// instead of answering, the credentials were wrong (that is all the real device says).
    public var isAwaitingVerdict: Bool {
        switch handshake {
        case .security0: false
        case .security1(let session): session.isAwaitingVerdict
        case .security2(let session): session.isAwaitingVerdict
        }
    }

    /// The first request for `prov-session`; calling it again restarts the handshake.
    public mutating func start() -> [UInt8] {
        switch handshake {
        case .security0(var session):
            defer { handshake = .security0(session) }
            return session.start()
        case .security1(var session):
            defer { handshake = .security1(session) }
            return session.start()
        case .security2(var session):
            defer { handshake = .security2(session) }
            return session.start()
        }
    }

    /// Reads the device's reply to the last request and says what to do next.
    public mutating func receive(_ reply: [UInt8]) throws(ProtocommError) -> ProtocommSessionStep {
        switch handshake {
        case .security0(var session):
            defer { handshake = .security0(session) }
            return try session.receive(reply)
        case .security1(var session):
            defer { handshake = .security1(session) }
            return try session.receive(reply)
        case .security2(var session):
            defer { handshake = .security2(session) }
            return try session.receive(reply)
        }
    }
}
