/// A non-negative integer of any size, for the modular arithmetic of Diffie–Hellman and SRP6a.
///
/// Stored as its minimal big-endian bytes (zero is the empty array), so values are `Sendable`,
/// comparable and hashable without owning any C memory; OpenSSL's BIGNUMs live only for the
/// duration of one operation.
public struct BigNumber: Sendable, Hashable, Comparable {
    /// Minimal big-endian magnitude: no leading zero bytes; empty for zero.
    public let magnitude: [UInt8]

    /// Reads a big-endian integer; leading zero bytes are allowed and dropped.
    public init(bigEndian bytes: [UInt8]) {
        magnitude = Array(bytes.drop { $0 == 0 })
    }

    public init(_ value: UInt64) {
        self.init(bigEndian: (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * UInt64($0))) })
    }

    public var isZero: Bool { magnitude.isEmpty }

    /// The value left-padded with zeros to exactly `count` bytes (the "PAD" of SRP and fixed-width DH keys).
    public func bigEndianBytes(count: Int) -> [UInt8] {
        precondition(magnitude.count <= count, "\(magnitude.count)-byte value does not fit in \(count) bytes")
        return [UInt8](repeating: 0, count: count - magnitude.count) + magnitude
    }

    /// `self ^ exponent mod modulus`, constant-time in the exponent (it is usually a secret).
    public func power(_ exponent: BigNumber, modulus: BigNumber) -> BigNumber {
        OpenSSLBigNumberArithmetic.modularPower(base: self, exponent: exponent, modulus: modulus)
    }

    /// `self · other mod modulus`.
    public func multiplied(by other: BigNumber, modulus: BigNumber) -> BigNumber {
        OpenSSLBigNumberArithmetic.modular(.multiply, self, other, modulus: modulus)
    }

    /// `self + other mod modulus`.
    public func adding(_ other: BigNumber, modulus: BigNumber) -> BigNumber {
        OpenSSLBigNumberArithmetic.modular(.add, self, other, modulus: modulus)
    }

    /// `self − other mod modulus`, always in `0 ..< modulus`.
    public func subtracting(_ other: BigNumber, modulus: BigNumber) -> BigNumber {
        OpenSSLBigNumberArithmetic.modular(.subtract, self, other, modulus: modulus)
    }

    /// `self mod modulus`.
    public func reduced(modulus: BigNumber) -> BigNumber {
        adding(BigNumber(0), modulus: modulus)
    }

    public static func + (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        OpenSSLBigNumberArithmetic.plain(.add, lhs, rhs)
    }

    public static func * (lhs: BigNumber, rhs: BigNumber) -> BigNumber {
        OpenSSLBigNumberArithmetic.plain(.multiply, lhs, rhs)
    }

    public static func < (lhs: BigNumber, rhs: BigNumber) -> Bool {
        if lhs.magnitude.count != rhs.magnitude.count { return lhs.magnitude.count < rhs.magnitude.count }
        return lhs.magnitude.lexicographicallyPrecedes(rhs.magnitude)
    }
}
