/// A method call to send: where it goes, what it invokes, and its arguments.
public struct DBusMethodCall: Sendable, Hashable, CustomStringConvertible {
    /// The bus name of the peer, such as `org.bluez`.
    public var destination: String
    /// The object the method runs on.
    public var path: DBusObjectPath
    /// The interface that declares the method.
    public var interface: String
    /// The method name.
    public var member: String
    /// The arguments, in order.
    public var arguments: [DBusValue]

    /// Describes a call.
    public init(
        destination: String, path: DBusObjectPath, interface: String, member: String, arguments: [DBusValue] = []
    ) {
        self.destination = destination
        self.path = path
        self.interface = interface
        self.member = member
        self.arguments = arguments
    }

    /// `interface.member` on `path`, for errors and logs.
    public var description: String { "\(interface).\(member) on \(path)" }
}
