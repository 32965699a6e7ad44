extension ProvisioningSecurity.Scheme {
    /// The scheme in words, for messages and reports.
    public var summary: String {
        switch self {
        case .bluFiNone: "BluFi without security"
        case .bluFiV1: "BluFi V1 (DH-1024, AES-128-CFB)"
        case .bluFiV2: "BluFi V2 (ffdhe3072, AES-256-CTR)"
        case .protocomm0: "protocomm security 0"
        case .protocomm1: "protocomm security 1 without a PoP"
        case .protocomm1WithPoP: "protocomm security 1 with a PoP"
        case .protocomm2: "protocomm security 2"
        case .improv: "Improv without authorization"
        case .improvAuthorized: "Improv with authorization"
        }
    }
}

extension ProvisioningSecurity {
    /// The scheme in words, and the link's encryption where there was some.
    public var summary: String { scheme.summary + (linkEncrypted ? " over an encrypted link" : "") }
}
