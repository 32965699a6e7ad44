/// One D-Bus value with its type: the Swift side of everything a message carries.
///
/// Decoding always yields `.bytes` for `ay` (BlueZ values, manufacturer data) and `.dictionary` for arrays of
/// dict entries, so code matching on a decoded value needs only one case for each shape.
public indirect enum DBusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(DBusObjectPath)
    case signature(String)
    /// A file descriptor passed over the bus; a decoded one is a duplicate that the receiver must close.
    case unixFD(Int32)
    /// An `ay` array.
    case bytes([UInt8])
    /// An array of any element type other than dict entries.
    case array(element: DBusType, [DBusValue])
    /// An `a{kv}` dictionary, in wire order.
    case dictionary(key: DBusType, value: DBusType, [DBusDictionaryEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The type this value encodes as.
    public var type: DBusType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .bytes: .array(.byte)
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }
}

/// One key/value pair of a D-Bus dictionary.
public struct DBusDictionaryEntry: Sendable, Hashable {
    /// The key, a basic-typed value.
    public var key: DBusValue
    /// The value.
    public var value: DBusValue

    /// Pairs a key with its value.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}
