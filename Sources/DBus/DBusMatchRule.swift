/// A signal match rule: what the bus should route to this connection, and what one subscriber wants of it.
///
/// The bus ORs every rule of a connection together, so each subscriber filters again locally with
/// `matches(_:)`. Local matching skips `sender`: the bus stamps the sender's unique name (`:1.42`), not the
/// well-known name the rule uses.
public struct DBusMatchRule: Sendable, Hashable {
    /// The well-known or unique name of the sender.
    public var sender: String?
    /// The signal's interface.
    public var interface: String?
    /// The signal's name.
    public var member: String?
    /// The emitting object, exactly.
    public var path: DBusObjectPath?
    /// The emitting object or anything below it.
    public var pathNamespace: DBusObjectPath?
    /// The first argument is exactly this string (`NameOwnerChanged` for one name).
    public var arg0: String?
    /// The first argument, a path, is this path, lies below it, or is a prefix of it ending in `/`.
    public var arg0Path: String?

    /// Describes a rule; unset parts match anything.
    public init(
        sender: String? = nil, interface: String? = nil, member: String? = nil, path: DBusObjectPath? = nil,
        pathNamespace: DBusObjectPath? = nil, arg0: String? = nil, arg0Path: String? = nil
    ) {
        self.sender = sender
        self.interface = interface
        self.member = member
        self.path = path
        self.pathNamespace = pathNamespace
        self.arg0 = arg0
        self.arg0Path = arg0Path
    }

    /// The rule in the bus's text form (`type='signal',sender='org.bluez',…`).
    public var text: String {
        var parts = ["type='signal'"]
        let fields: [(String, String?)] = [
            ("sender", sender), ("interface", interface), ("member", member), ("path", path?.rawValue),
            ("path_namespace", pathNamespace?.rawValue), ("arg0", arg0), ("arg0path", arg0Path),
        ]
        for case (let key, let value?) in fields {
            parts.append("\(key)='\(value)'")
        }
        return parts.joined(separator: ",")
    }

    /// Whether a received signal is one this rule asks for (sender aside, see the type's notes).
    public func matches(_ signal: DBusSignal) -> Bool {
        if let interface, interface != signal.interface { return false }
        if let member, member != signal.member { return false }
        if let path, path != signal.path { return false }
        if let pathNamespace, !signal.path.isDescendant(of: pathNamespace) { return false }
        if let arg0, signal.arguments.first?.string != arg0 { return false }
        if let arg0Path {
            let first = signal.arguments.first
            guard let argument = first?.objectPath?.rawValue ?? first?.string else { return false }
            return argument == arg0Path || (arg0Path.hasSuffix("/") && argument.hasPrefix(arg0Path))
                || (argument.hasSuffix("/") && arg0Path.hasPrefix(argument))
        }
        return true
    }
}
