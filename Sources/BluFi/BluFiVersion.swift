/// The BluFi component version a device answers to GET_VERSION (`01 03` = 1.3).
public struct BluFiVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The first byte of the VERSION payload.
    public var major: UInt8
    /// The second byte of the VERSION payload.
    public var minor: UInt8

    /// The version `major.minor`.
    public init(major: UInt8, minor: UInt8) {
        self.major = major
        self.minor = minor
    }

    /// Parses a VERSION payload: exactly two bytes.
    public init?(payload: [UInt8]) {
        guard payload.count == 2 else { return nil }
        self.init(major: payload[0], minor: payload[1])
    }

    /// The VERSION payload.
    public var payload: [UInt8] { [major, minor] }

    public var description: String { "\(major).\(minor)" }

    public static func < (lhs: BluFiVersion, rhs: BluFiVersion) -> Bool {
        (lhs.major, lhs.minor) < (rhs.major, rhs.minor)
    }
}
