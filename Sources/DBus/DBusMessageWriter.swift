import CDBus

/// Appends `DBusValue`s to a libdbus message through `DBusMessageIter`.
///
/// Values are checked first, because libdbus answers a malformed value with a warning (or an abort, when
/// `DBUS_FATAL_WARNINGS` is set) rather than an error; after the check only memory exhaustion can fail.
enum DBusMessageWriter {
    /// A new method-call message carrying `call` and its arguments; the caller owns it and unrefs it.
    static func message(for call: DBusMethodCall) throws(DBusError) -> OpaquePointer {
        guard
            let message = dbus_message_new_method_call(
                call.destination, call.path.rawValue, call.interface, call.member)
        else { preconditionFailure("libdbus ran out of memory building a message") }
        do throws(DBusError) {
            try append(call.arguments, to: message)
        } catch {
            dbus_message_unref(message)
            throw error
        }
        return message
    }

    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for value in values {
            try validate(value)
        }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for value in values {
            append(value, to: &iterator)
        }
    }

    private static func validate(_ value: DBusValue) throws(DBusError) {
        switch value {
        case .signature(let text):
            guard DBusType.types(inSignature: text) != nil else {
                throw .unexpectedReply("invalid signature \"\(text)\"")
            }
        case .string(let text):
            guard !text.utf8.contains(0) else { throw .unexpectedReply("string with an embedded NUL") }
        case .array(let element, let values):
            for member in values {
                guard member.type == element else {
                    throw .unexpectedReply("array of \(element.signature) holds a \(member.type.signature)")
                }
                try validate(member)
            }
        case .dictionary(let key, let valueType, let entries):
            guard key.isBasic else { throw .unexpectedReply("dictionary key type \(key.signature) is not basic") }
            for entry in entries {
                guard entry.key.type == key, entry.value.type == valueType else {
                    throw .unexpectedReply("dictionary entry does not match a{\(key.signature)\(valueType.signature)}")
                }
                try validate(entry.key)
                try validate(entry.value)
            }
        case .structure(let fields):
            guard !fields.isEmpty else { throw .unexpectedReply("empty structure") }
            for field in fields { try validate(field) }
        case .variant(let inner):
            try validate(inner)
        default:
            break
        }
    }

    private static func append(_ value: DBusValue, to iterator: inout DBusMessageIter) {
        let appended: Bool
        switch value {
        case .byte(let number): appended = appendBasic(number, CDBus_TYPE_BYTE, &iterator)
        case .boolean(let flag): appended = appendBasic(dbus_bool_t(flag ? 1 : 0), CDBus_TYPE_BOOLEAN, &iterator)
        case .int16(let number): appended = appendBasic(number, CDBus_TYPE_INT16, &iterator)
        case .uint16(let number): appended = appendBasic(number, CDBus_TYPE_UINT16, &iterator)
        case .int32(let number): appended = appendBasic(number, CDBus_TYPE_INT32, &iterator)
        case .uint32(let number): appended = appendBasic(number, CDBus_TYPE_UINT32, &iterator)
        case .int64(let number): appended = appendBasic(number, CDBus_TYPE_INT64, &iterator)
        case .uint64(let number): appended = appendBasic(number, CDBus_TYPE_UINT64, &iterator)
        case .double(let number): appended = appendBasic(number, CDBus_TYPE_DOUBLE, &iterator)
        case .unixFD(let fd): appended = appendBasic(fd, CDBus_TYPE_UNIX_FD, &iterator)
        case .string(let text): appended = appendText(text, CDBus_TYPE_STRING, &iterator)
        case .objectPath(let path): appended = appendText(path.rawValue, CDBus_TYPE_OBJECT_PATH, &iterator)
        case .signature(let text): appended = appendText(text, CDBus_TYPE_SIGNATURE, &iterator)
        case .bytes(let bytes): appended = appendBytes(bytes, &iterator)
        case .array(let element, let values):
            appended = appendContainer(CDBus_TYPE_ARRAY, element.signature, &iterator) { inner in
                for member in values { append(member, to: &inner) }
            }
        case .dictionary(let key, let valueType, let entries):
            let entrySignature = "{" + key.signature + valueType.signature + "}"
            appended = appendContainer(CDBus_TYPE_ARRAY, entrySignature, &iterator) { array in
                for entry in entries {
                    _ = appendContainer(CDBus_TYPE_DICT_ENTRY, nil, &array) { pair in
                        append(entry.key, to: &pair)
                        append(entry.value, to: &pair)
                    }
                }
            }
        case .structure(let fields):
            appended = appendContainer(CDBus_TYPE_STRUCT, nil, &iterator) { inner in
                for field in fields { append(field, to: &inner) }
            }
        case .variant(let inner):
            appended = appendContainer(CDBus_TYPE_VARIANT, inner.type.signature, &iterator) { variant in
                append(inner, to: &variant)
            }
        }
        // Validation ruled out every other failure; libdbus reports only out-of-memory here.
        precondition(appended, "libdbus ran out of memory building a message")
    }

    private static func appendBasic<Number: BitwiseCopyable>(
        _ number: Number, _ type: Int32, _ iterator: inout DBusMessageIter
    ) -> Bool {
        var copy = number
        return dbus_message_iter_append_basic(&iterator, type, &copy) != 0
    }

    private static func appendText(_ text: String, _ type: Int32, _ iterator: inout DBusMessageIter) -> Bool {
        text.withCString { characters in
            var pointer: UnsafePointer<CChar>? = characters
            return dbus_message_iter_append_basic(&iterator, type, &pointer) != 0
        }
    }

    private static func appendBytes(_ bytes: [UInt8], _ iterator: inout DBusMessageIter) -> Bool {
        appendContainer(CDBus_TYPE_ARRAY, "y", &iterator) { array in
            guard !bytes.isEmpty else { return }
            let copied = bytes.withUnsafeBufferPointer { buffer in
                var base = buffer.baseAddress
                return dbus_message_iter_append_fixed_array(&array, CDBus_TYPE_BYTE, &base, Int32(buffer.count))
            }
            precondition(copied != 0, "libdbus ran out of memory building a message")
        }
    }

    private static func appendContainer(
        _ type: Int32, _ signature: String?, _ iterator: inout DBusMessageIter,
        _ fill: (inout DBusMessageIter) -> Void
    ) -> Bool {
        var inner = DBusMessageIter()
        guard dbus_message_iter_open_container(&iterator, type, signature, &inner) != 0 else { return false }
        fill(&inner)
        return dbus_message_iter_close_container(&iterator, &inner) != 0
    }
}
