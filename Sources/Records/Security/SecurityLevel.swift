/// How well a provisioning run protected the credentials it sent, weakest first, so a policy can ask for
/// "at least" a level.
public enum SecurityLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// The credentials travel in plaintext: whoever listens reads them.
    case none
    /// The credentials travel encrypted, but the host did not prove it talks to the right device: an
    /// impostor or a man in the middle could still take them.
    case encrypted
    /// Encrypted, and the device proved it is the one meant (a PoP or SRP password it knows, or a person
    /// authorizing it at the device).
    case authenticated

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    private var rank: Int {
        switch self {
        case .none: 0
        case .encrypted: 1
        case .authenticated: 2
        }
    }
}
