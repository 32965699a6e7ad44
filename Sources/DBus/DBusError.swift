/// A D-Bus error: the error name and message from the bus or the peer, or one libdbus and ztprov use locally.
///
/// Names stay as D-Bus spells them (`org.bluez.Error.Failed`) so that callers map them in one table and users
/// can search for them.
public struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The error name, such as `org.bluez.Error.InProgress`.
    public var name: String
    /// The human-readable message that came with it (may be empty).
    public var message: String

    /// Makes an error from its name and message.
    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    /// "`name`: `message`", the form `busctl` and `gdbus` print.
    public var description: String { message.isEmpty ? name : "\(name): \(message)" }

    /// A call got no reply before its deadline (libdbus's own name for this).
    public static func timedOut(_ what: String) -> DBusError {
        DBusError(name: Name.timeout, message: "no reply to \(what) before the deadline")
    }

    /// The bus took the connection but did not finish the handshake (authentication and `Hello`) in time:
    /// a hung dbus-daemon, or a socket that is not a bus.
    public static func noHandshake(_ timeout: Duration) -> DBusError {
        DBusError(name: Name.noHandshake, message: "the bus did not answer the connection handshake within \(timeout)")
    }

    /// Whether this is ``noHandshake(_:)``.
    public var isNoHandshake: Bool { name == Name.noHandshake }

    /// The connection to the bus is closed or was lost.
    public static func disconnected(_ detail: String) -> DBusError {
        DBusError(name: Name.disconnected, message: detail)
    }

    /// A reply or signal did not have the shape the caller expected.
    public static func unexpectedReply(_ detail: String) -> DBusError {
        DBusError(name: Name.invalidSignature, message: detail)
    }

    /// Error names defined by the D-Bus specification that ztprov tests for.
    public enum Name {
        /// A method call timed out.
        public static let timeout = "org.freedesktop.DBus.Error.Timeout"
        /// ztprov's own: the bus never finished the connection handshake.
        public static let noHandshake = "io.ztprov.Error.BusNotAnswering"
        /// A method call got no reply (the peer vanished or blocked).
        public static let noReply = "org.freedesktop.DBus.Error.NoReply"
        /// The connection is closed.
        public static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        /// No process owns the destination name.
        public static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        /// The named owner does not exist.
        public static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        /// The object path does not exist.
        public static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        /// The object lacks the method.
        public static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        /// The bus policy refused the call.
        public static let accessDenied = "org.freedesktop.DBus.Error.AccessDenied"
        /// Arguments had the wrong types.
        public static let invalidSignature = "org.freedesktop.DBus.Error.InvalidSignature"
        /// Arguments were refused.
        public static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
    }
}
