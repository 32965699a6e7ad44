import CDBus

@testable import DBus

/// Whole messages as the bytes libdbus puts on the wire, for checking the value coding without a bus and for
/// recording payloads (tests only: ztprov itself never marshals a message outside a connection).
enum DBusWireFormat {
    /// Marshals a method call with its arguments into wire bytes.
    static func marshal(_ call: DBusMethodCall) throws(DBus.DBusError) -> [UInt8] {
        let message = try DBusMessageWriter.message(for: call)
        defer { dbus_message_unref(message) }
        // Only a sent message gets a serial; a parser rejects serial 0.
        dbus_message_set_serial(message, 1)
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        precondition(dbus_message_marshal(message, &buffer, &length) != 0, "libdbus ran out of memory marshalling")
        defer { dbus_free(buffer) }
        return buffer.map { pointer in
            pointer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                Array(UnsafeBufferPointer(start: $0, count: Int(length)))
            }
        } ?? []
    }

    /// Parses wire bytes back into a message and decodes its arguments.
    static func arguments(ofMarshalled bytes: [UInt8]) throws(DBus.DBusError) -> [DBusValue] {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        defer { dbus_error_free(&error) }
        let message = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { dbus_message_demarshal($0.baseAddress, Int32($0.count), &error) }
        }
        guard let message else { throw DBus.DBusError(error) }
        defer { dbus_message_unref(message) }
        return try DBusMessageReader.arguments(of: message)
    }
}
