/// Typed reads of decoded values; each looks through variants, because properties always arrive wrapped.
extension DBusValue {
    /// The value inside any number of variant wrappers.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The string, if this is a string.
    public var string: String? {
        if case .string(let value) = unwrapped { return value }
        return nil
    }

    /// The boolean, if this is a boolean.
    public var bool: Bool? {
        if case .boolean(let value) = unwrapped { return value }
        return nil
    }

    /// The object path, if this is one.
    public var objectPath: DBusObjectPath? {
        if case .objectPath(let value) = unwrapped { return value }
        return nil
    }

    /// The bytes, if this is an `ay`.
    public var bytes: [UInt8]? {
        if case .bytes(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type widened to `Int`, if this is an integer.
    public var integer: Int? {
        switch unwrapped {
        case .byte(let value): Int(value)
        case .int16(let value): Int(value)
        case .uint16(let value): Int(value)
        case .int32(let value): Int(value)
        case .uint32(let value): Int(value)
        case .int64(let value): Int(value)
        case .uint64(let value): Int(exactly: value)
        default: nil
        }
    }

    /// The elements, if this is an array (an `ay` gives its bytes as `.byte` values).
    public var elements: [DBusValue]? {
        switch unwrapped {
        case .array(_, let values): values
        case .bytes(let bytes): bytes.map(DBusValue.byte)
        default: nil
        }
    }

    /// The strings of an `as`, if this is one.
    public var strings: [String]? {
        elements?.compactMap(\.string)
    }

    /// The entries, if this is a dictionary.
    public var entries: [DBusDictionaryEntry]? {
        if case .dictionary(_, _, let entries) = unwrapped { return entries }
        return nil
    }

    /// A string-keyed dictionary (`a{sv}`, `a{sa{sv}}` …) as a Swift dictionary; later duplicates win.
    public var stringKeyed: [String: DBusValue]? {
        guard let entries else { return nil }
        var result: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.string else { return nil }
            result[key] = entry.value
        }
        return result
    }
}

/// Builders for the shapes BlueZ expects in arguments.
extension DBusValue {
    /// An `a{sv}` dictionary, each value wrapped in a variant, keys in sorted order so messages are reproducible.
    public static func properties(_ values: [String: DBusValue]) -> DBusValue {
        let entries = values.keys.sorted().map { key in
            DBusDictionaryEntry(key: .string(key), value: .variant(values[key]!))
        }
        return .dictionary(key: .string, value: .variant, entries)
    }

    /// An `as` array.
    public static func stringArray(_ values: [String]) -> DBusValue {
        .array(element: .string, values.map(DBusValue.string))
    }
}
