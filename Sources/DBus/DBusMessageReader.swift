import CDBus

/// Decodes the arguments of a libdbus message into `DBusValue`s through `DBusMessageIter`.
enum DBusMessageReader {
    static func arguments(of message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var iterator = DBusMessageIter()
        guard dbus_message_iter_init(message, &iterator) != 0 else { return [] }
        return try readAll(&iterator)
    }

    private static func readAll(_ iterator: inout DBusMessageIter) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(&iterator) != CDBus_TYPE_INVALID {
            values.append(try read(&iterator))
            dbus_message_iter_next(&iterator)
        }
        return values
    }

    private static func read(_ iterator: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        let code = dbus_message_iter_get_arg_type(&iterator)
        switch code {
        case CDBus_TYPE_BYTE: return .byte(basic(&iterator, UInt8(0)))
        case CDBus_TYPE_BOOLEAN: return .boolean(basic(&iterator, dbus_bool_t(0)) != 0)
        case CDBus_TYPE_INT16: return .int16(basic(&iterator, Int16(0)))
        case CDBus_TYPE_UINT16: return .uint16(basic(&iterator, UInt16(0)))
        case CDBus_TYPE_INT32: return .int32(basic(&iterator, Int32(0)))
        case CDBus_TYPE_UINT32: return .uint32(basic(&iterator, UInt32(0)))
        case CDBus_TYPE_INT64: return .int64(basic(&iterator, Int64(0)))
        case CDBus_TYPE_UINT64: return .uint64(basic(&iterator, UInt64(0)))
        case CDBus_TYPE_DOUBLE: return .double(basic(&iterator, Double(0)))
        case CDBus_TYPE_UNIX_FD: return .unixFD(basic(&iterator, Int32(-1)))
        case CDBus_TYPE_STRING: return .string(text(&iterator))
        case CDBus_TYPE_SIGNATURE: return .signature(text(&iterator))
        case CDBus_TYPE_OBJECT_PATH: return .objectPath(DBusObjectPath(unchecked: text(&iterator)))
        case CDBus_TYPE_ARRAY: return try readArray(&iterator)
        case CDBus_TYPE_VARIANT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .variant(try read(&inner))
        case CDBus_TYPE_STRUCT:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            return .structure(try readAll(&inner))
        default:
            throw .unexpectedReply("unsupported D-Bus type code \(code)")
        }
    }

    private static func readArray(_ iterator: inout DBusMessageIter) throws(DBusError) -> DBusValue {
        guard let type = DBusType(signature: signature(&iterator)) else {
            throw .unexpectedReply("malformed array signature \(signature(&iterator))")
        }
        var inner = DBusMessageIter()
        dbus_message_iter_recurse(&iterator, &inner)
        switch type {
        case .array(.byte):
            var base: UnsafePointer<UInt8>? = nil
            var count: Int32 = 0
            dbus_message_iter_get_fixed_array(&inner, &base, &count)
            return .bytes(base.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? [])
        case .dictionary(let key, let value):
            var entries: [DBusDictionaryEntry] = []
            while dbus_message_iter_get_arg_type(&inner) == CDBus_TYPE_DICT_ENTRY {
                var pair = DBusMessageIter()
                dbus_message_iter_recurse(&inner, &pair)
                let entryKey = try read(&pair)
                dbus_message_iter_next(&pair)
                entries.append(DBusDictionaryEntry(key: entryKey, value: try read(&pair)))
                dbus_message_iter_next(&inner)
            }
            return .dictionary(key: key, value: value, entries)
        case .array(let element):
            return .array(element: element, try readAll(&inner))
        default:
            throw .unexpectedReply("array iterator with non-array signature \(type.signature)")
        }
    }

    private static func basic<Number: BitwiseCopyable>(_ iterator: inout DBusMessageIter, _ initial: Number) -> Number {
        var value = initial
        dbus_message_iter_get_basic(&iterator, &value)
        return value
    }

    private static func text(_ iterator: inout DBusMessageIter) -> String {
        var pointer: UnsafePointer<CChar>? = nil
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) } ?? ""
    }

    private static func signature(_ iterator: inout DBusMessageIter) -> String {
        guard let raw = dbus_message_iter_get_signature(&iterator) else { return "" }
        defer { dbus_free(raw) }
        return String(cString: raw)
    }
}
