/// A finite-field Diffie–Hellman group: prime modulus p and generator g.
///
/// Any caller-given group is accepted as is: BluFi V1's 1024-bit prime is not a safe prime and
/// OpenSSL's own DH parameter checks would refuse it, so no such check is made here.
public struct DHGroup: Sendable, Hashable {
    public let prime: BigNumber
    public let generator: BigNumber

    public init(prime: [UInt8], generator: [UInt8]) {
        self.prime = BigNumber(bigEndian: prime)
        self.generator = BigNumber(bigEndian: generator)
    }

    /// Width in bytes of public keys and fixed-width shared secrets in this group.
    public var byteCount: Int { prime.magnitude.count }

    /// RFC 7919 ffdhe3072, g = 2 (BluFi V2).
    public static let ffdhe3072 = DHGroup(prime: hexBytes(ffdhe3072PrimeHex), generator: [2])

    private static let ffdhe3072PrimeHex = """
        FFFFFFFFFFFFFFFFADF85458A2BB4A9AAFDC5620273D3CF1D8B9C583CE2D3695A9E13641146433FBCC939DCE249B3EF9\
        7D2FE363630C75D8F681B202AEC4617AD3DF1ED5D5FD65612433F51F5F066ED0856365553DED1AF3B557135E7F57C935\
        984F0C70E0E68B77E2A689DAF3EFE8721DF158A136ADE73530ACCA4F483A797ABC0AB182B324FB61D108A94BB2C8E3FB\
        B96ADAB760D7F4681D4F42A3DE394DF4AE56EDE76372BB190B07A7C8EE0A6D709E02FCE1CDF7E2ECC03404CD28342F61\
        9172FE9CE98583FF8E4F1232EEF28183C3FE3B1B4C6FAD733BB5FCBC2EC22005C58EF1837D1683B2C6F34A26C1B2EFFA\
        886B4238611FCFDCDE355B3B6519035BBC34F4DEF99C023861B46FC9D6E6C9077AD91D2691F7F7EE598CB0FAC186D91C\
        AEFE130985139270B4130C93BC437944F4FD4452E2D74DD364F2E21E71F54BFF5CAE82AB9C9DF69EE86D2BC522363A0D\
        ABC521979B0DEADA1DBF9A42D5C4484E0ABCD06BFA53DDEF3C1B20EE3FD59D7C25E41D2B66C62E37FFFFFFFFFFFFFFFF
        """
}

/// Decodes a constant hex string written in this module; only ever called on literals.
func hexBytes(_ hex: String) -> [UInt8] {
    let digits = Array(hex.utf8)
    return stride(from: 0, to: digits.count, by: 2).map { index in
        UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16)!
    }
}
