/// Secrets never reach a log through `print`, string interpolation, `String(reflecting:)` or
/// `dump`: these descriptions and mirrors show only whether a secret is present.
extension ProtocommSecurity: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        switch self {
        case .security0:
            "security 0"
        case .security1(let proofOfPossession):
            "security 1 (\(proofOfPossession.isEmpty ? "no PoP" : "PoP redacted"))"
        case .security2(let username, _, let patch):
            "security 2 (user \(username), password redacted, patch \(patch.map { String($0.rawValue) } ?? "from nonce"))"
        }
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

extension ProtocommCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let present = [
            proofOfPossession.map { _ in "PoP" }, username.map { "user \($0)" }, password.map { _ in "password" },
        ]
        return "credentials(" + present.compactMap { $0 }.joined(separator: ", ") + ")"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
