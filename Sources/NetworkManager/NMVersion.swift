/// A NetworkManager release number, compared to decide which D-Bus calls and values it understands.
struct NMVersion: Comparable, Sendable, CustomStringConvertible {
    let major: Int
    let minor: Int
    let micro: Int

    init(_ major: Int, _ minor: Int, _ micro: Int) {
        self.major = major
        self.minor = minor
        self.micro = micro
    }

    /// Parses `1.42.4`; a development suffix such as `1.47.2-dev` is ignored, a missing micro is 0.
    init?(_ text: String) {
        let numbers = text.split(separator: ".", maxSplits: 2).map { $0.prefix(while: \.isNumber) }
        guard numbers.count >= 2, let major = Int(numbers[0]), let minor = Int(numbers[1]) else { return nil }
        self.init(major, minor, numbers.count > 2 ? Int(numbers[2]) ?? 0 : 0)
    }

    /// `AddAndActivateConnection2` with `persist=volatile` and `bind-activation` appeared in 1.16.
    var hasAddAndActivate2: Bool { self >= NMVersion(1, 16, 0) }

    /// `ipv6.method=disabled` appeared in 1.20; older releases only know `ignore`.
    var hasIPv6MethodDisabled: Bool { self >= NMVersion(1, 20, 0) }

    static func < (lhs: NMVersion, rhs: NMVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.micro) < (rhs.major, rhs.minor, rhs.micro)
    }

    var description: String { "\(major).\(minor).\(micro)" }
}
