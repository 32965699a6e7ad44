public import CryptoPrimitives

/// How frames are protected after negotiation: not at all, the 1024-bit scheme of BluFi ≤ 1.3, or
/// the ffdhe3072 scheme of BluFi 1.4.
///
/// | | V1 (ESP-IDF ≤ 5.x example) | V2 (ESP-IDF ≥ 6.0 example) |
/// |---|---|---|
/// | group | the apps' 1024-bit prime, g = 2 | RFC 7919 ffdhe3072, g = 2 |
/// | key | MD5 of the secret without leading zeros | SHA-256 of the 384-byte secret |
/// | cipher | AES-128-CFB128, fresh per frame, IV = [seq, 0 × 15] | AES-256-CTR, one stream per direction |
public enum BluFiSecurityScheme: Sendable, Hashable {
    /// Plain frames: no negotiation, no checksum, no encryption.
    case none
    /// DH-1024 (the apps' prime), MD5 key, AES-128-CFB128 per frame.
    case v1
    /// ffdhe3072, SHA-256 key, AES-256-CTR streams.
    case v2

    /// The scheme a stock device of `version` expects: V2 from 1.4 on.
    public init(deviceVersion: BluFiVersion) {
        self = deviceVersion >= BluFiVersion(major: 1, minor: 4) ? .v2 : .v1
    }

    /// The Diffie–Hellman group of the negotiation; `nil` for ``none``.
    public var group: DHGroup? {
        switch self {
        case .none: nil
        case .v1: Self.v1Group
        case .v2: DHGroup.ffdhe3072
        }
    }

    /// How many random bytes our private exponent takes: 48 (384 bits) in ffdhe3072, whose safe prime
    /// makes a short exponent sound (RFC 7919 §5.2 asks for at least 275 bits) and cuts each of the two
    /// modular exponentiations about eightfold; the full width of the V1 prime, which is not safe, so a
    /// short exponent could leak through its small subgroups.
    public var privateExponentByteCount: Int? {
        switch self {
        case .none: nil
        case .v1: Self.v1Group.byteCount
        case .v2: 48
        }
    }

    /// A fresh key pair in the scheme's group with its exponent width; `nil` for ``none``.
    func drawKeyPair(using random: inout some RandomSource) -> DHKeyPair? {
        group.map { DHKeyPair.generate(in: $0, privateKeyByteCount: privateExponentByteCount, using: &random) }
    }

    /// The prime every known V1 client sends (Android `DH_P`, iOS `DH_P[]`).
    ///
    /// Prime, but not a safe prime, which is why it goes through plain modular arithmetic rather than
    /// OpenSSL's DH checks.
    private static let v1Group = DHGroup(
        prime: [
            0xCF, 0x5C, 0xF5, 0xC3, 0x84, 0x19, 0xA7, 0x24, 0x95, 0x7F, 0xF5, 0xDD, 0x32, 0x3B, 0x9C, 0x45,
            0xC3, 0xCD, 0xD2, 0x61, 0xEB, 0x74, 0x0F, 0x69, 0xAA, 0x94, 0xB8, 0xBB, 0x1A, 0x5C, 0x96, 0x40,
            0x91, 0x53, 0xBD, 0x76, 0xB2, 0x42, 0x22, 0xD0, 0x32, 0x74, 0xE4, 0x72, 0x5A, 0x54, 0x06, 0x09,
            0x2E, 0x9E, 0x82, 0xE9, 0x13, 0x5C, 0x64, 0x3C, 0xAE, 0x98, 0x13, 0x2B, 0x0D, 0x95, 0xF7, 0xD6,
            0x53, 0x47, 0xC6, 0x8A, 0xFC, 0x1E, 0x67, 0x7D, 0xA9, 0x0E, 0x51, 0xBB, 0xAB, 0x5F, 0x5C, 0xF4,
            0x29, 0xC2, 0x91, 0xB4, 0xBA, 0x39, 0xC6, 0xB2, 0xDC, 0x5E, 0x8C, 0x72, 0x31, 0xE4, 0x6A, 0xA7,
            0x72, 0x8E, 0x87, 0x66, 0x45, 0x32, 0xCD, 0xF5, 0x47, 0xBE, 0x20, 0xC9, 0xA3, 0xFA, 0x83, 0x42,
            0xBE, 0x6E, 0x34, 0x37, 0x1A, 0x27, 0xC0, 0x6F, 0x7D, 0xC0, 0xED, 0xDD, 0xD2, 0xF8, 0x63, 0x73,
        ],
        generator: [0x02]
    )
}

/// Which scheme the client uses: the device version decides, or the user does.
public enum BluFiSecurityChoice: Sendable, Hashable {
    /// V1 below BluFi 1.4, V2 from 1.4; V1 when the device does not answer GET_VERSION.
    case automatic
    /// Exactly this scheme, whatever the device version (products may keep V1 callbacks on IDF 6).
    case fixed(BluFiSecurityScheme)

    /// The scheme to negotiate once the version is known (or known to be unavailable).
    public func resolved(deviceVersion: BluFiVersion?) -> BluFiSecurityScheme {
        switch self {
        case .automatic: deviceVersion.map(BluFiSecurityScheme.init(deviceVersion:)) ?? .v1
        case .fixed(let scheme): scheme
        }
    }

    /// A key pair for each scheme this choice may negotiate (V2's and V1's when automatic), for
    /// ``BluFiClient/keyPairsDrawnAhead``: drawn while the link comes up, the exponentiation is off the
    /// session's path.
    public func drawKeyPairs(using random: inout some RandomSource) -> [DHKeyPair] {
        let schemes: [BluFiSecurityScheme] =
            switch self {
            case .automatic: [.v2, .v1]
            case .fixed(let scheme): [scheme]
            }
        return schemes.compactMap { $0.drawKeyPair(using: &random) }
    }
}
