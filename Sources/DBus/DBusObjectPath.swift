/// A D-Bus object path such as `/org/bluez/hci0/dev_24_0A_C4_12_34_56`, checked against the D-Bus spec's grammar.
///
/// libdbus aborts on an invalid path, so the check happens when the value is made, not when it is sent.
public struct DBusObjectPath: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path text.
    public let rawValue: String

    /// The root object `/`.
    public static let root = DBusObjectPath(unchecked: "/")

    /// Accepts `/` or `/`-separated non-empty elements of `[A-Za-z0-9_]`; nil otherwise.
    public init?(_ rawValue: String) {
        guard DBusObjectPath.isValid(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// The path text.
    public var description: String { rawValue }

    /// The parent object's path (`/org/bluez/hci0` for a device under it); nil for the root.
    public var parent: DBusObjectPath? {
        guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return nil }
        return slash == rawValue.startIndex ? .root : DBusObjectPath(unchecked: String(rawValue[..<slash]))
    }

    /// The last path element (`hci0` for `/org/bluez/hci0`).
    public var lastComponent: String {
        rawValue.split(separator: "/").last.map(String.init) ?? ""
    }

    /// Whether this path is `ancestor` or lies below it.
    public func isDescendant(of ancestor: DBusObjectPath) -> Bool {
        ancestor.rawValue == "/" || rawValue == ancestor.rawValue || rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    /// Orders paths by their text, so listings come out stable.
    public static func < (lhs: DBusObjectPath, rhs: DBusObjectPath) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    private static func isValid(_ text: String) -> Bool {
        guard text.first == "/" else { return false }
        if text == "/" { return true }
        let elements = text.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        return elements.allSatisfy { element in
            !element.isEmpty
                && element.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0))
                }
        }
    }
}
