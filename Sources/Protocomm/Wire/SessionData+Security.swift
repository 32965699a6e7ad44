/// Building and unwrapping the `SessionData` envelope every handshake message travels in.
extension WireSessionData {
    init(security0 payload: WireSec0Payload) {
        self.init()
        secVer = .secScheme0
        sec0 = payload
    }

    init(security1 payload: WireSec1Payload) {
        self.init()
        secVer = .secScheme1
        sec1 = payload
    }

    init(security2 payload: WireSec2Payload) {
        self.init()
        secVer = .secScheme2
        sec2 = payload
    }

    /// Decodes `bytes` and checks that both `sec_ver` and the payload oneof name `level`, as the
    /// device does before it looks any further.
    init(wireBytes bytes: [UInt8], expecting level: ProtocommSecurityLevel) throws(ProtocommError) {
        self = try WireSessionData(wireBytes: bytes)
        guard secVer.rawValue == level.rawValue else {
            throw .securitySchemeMismatch(expected: level.rawValue, received: secVer.rawValue)
        }
        let payloadLevel: ProtocommSecurityLevel? =
            switch proto {
            case .sec0: .security0
            case .sec1: .security1
            case .sec2: .security2
            case nil: nil
            }
        // Security 0 devices check sec_ver only; the others insist on their own payload.
        if level == .security0 && payloadLevel == nil { return }
        guard let payloadLevel else {
            throw .unexpectedMessage(expected: "Sec\(level.rawValue)Payload", received: "SessionData without payload")
        }
        guard payloadLevel == level else {
            throw .securitySchemeMismatch(expected: level.rawValue, received: payloadLevel.rawValue)
        }
    }
}
