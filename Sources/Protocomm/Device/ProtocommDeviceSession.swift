public import CryptoPrimitives

/// The device side of whichever security scheme the device runs.
public struct ProtocommDeviceSession: Sendable {
    private var handshake: Handshake

    private enum Handshake: Sendable {
        case security0(ProtocommSecurity0DeviceSession)
        case security1(ProtocommSecurity1DeviceSession)
        case security2(ProtocommSecurity2DeviceSession)
    }

    /// A fresh session for a device running `security`.
    public init(security: ProtocommDeviceSecurity) {
        switch security {
        case .security0:
            handshake = .security0(ProtocommSecurity0DeviceSession())
        case .security1(let proofOfPossession):
            handshake = .security1(ProtocommSecurity1DeviceSession(proofOfPossession: proofOfPossession))
        case .security2(let verifier, let patch):
            handshake = .security2(ProtocommSecurity2DeviceSession(verifier: verifier, patch: patch))
        }
    }

    /// Answers a `prov-session` request, drawing ephemeral secrets and nonces from `random`; a throw
    /// means the real device would close the connection.
    public mutating func receivedRequest(
        _ request: [UInt8], using random: inout some RandomSource
    ) throws(ProtocommError) -> ProtocommDeviceHandshakeStep {
        switch handshake {
        case .security0(let session):
            return try session.receivedRequest(request)
        case .security1(var session):
            defer { handshake = .security1(session) }
            return try session.receivedRequest(request, using: &random)
        case .security2(var session):
            defer { handshake = .security2(session) }
            return try session.receivedRequest(request, using: &random)
        }
    }
}
