/// A connection profile as NetworkManager's D-Bus API spells it (`a{sa{sv}}`): setting name, then
/// property name, then a typed value.
///
/// Kept as plain Swift so the profile can be checked key by key without libnm; the `GLib/` folder
/// turns it into a `GVariant`, sorted by name so the result is reproducible.
struct NMConnectionSettings: Equatable, Sendable {
    /// A property value with the D-Bus type NetworkManager expects for that property.
    enum Value: Equatable, Sendable {
        case string(String)
        case bool(Bool)
        case int32(Int32)
        case uint32(UInt32)
        case bytes([UInt8])
        case strings([String])
    }

    private(set) var settings: [String: [String: Value]] = [:]

    /// The value of `setting.property`, such as `ipv4.never-default`.
    subscript(setting: String, property: String) -> Value? {
        get { settings[setting]?[property] }
        set { settings[setting, default: [:]][property] = newValue }
    }
}
