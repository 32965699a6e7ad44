/// A signal received from the bus, with its decoded arguments.
public struct DBusSignal: Sendable, Hashable {
    /// The unique bus name of the sender (`:1.42`); nil only for libdbus's own local signals.
    public var sender: String?
    /// The object that emitted it.
    public var path: DBusObjectPath
    /// The interface that declares it.
    public var interface: String
    /// The signal name.
    public var member: String
    /// The arguments, in order.
    public var arguments: [DBusValue]

    /// Describes a signal.
    public init(sender: String?, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue]) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }
}
