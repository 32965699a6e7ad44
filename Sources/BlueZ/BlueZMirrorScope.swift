public import DBus

/// Which part of bluetoothd's object tree a client mirrors, and so which of its signals the bus sends it.
///
/// bluetoothd broadcasts every change: `PropertiesChanged` from the object itself, `InterfacesAdded` and
/// `InterfacesRemoved` from its object manager at `/` with the object's path as the first argument
/// (gdbus/object.c). The bus delivers a signal to every connection with a matching rule, so a client that
/// works through one adapter asks only for that adapter's subtree: at four adapters, each adapter's discovery
/// reports then reach one client instead of four.
public struct BlueZMirrorScope: Sendable, Hashable {
    /// The object whose subtree is mirrored, itself included.
    public let root: DBusObjectPath

    /// Every adapter and device, for a client that chooses its adapter from the mirror.
    public static let allAdapters = BlueZMirrorScope(root: BlueZNames.root)

    private init(root: DBusObjectPath) {
        self.root = root
    }

    /// One adapter by its kernel name (`hci1`): the adapter and its devices with their GATT objects; nil
    /// for a name that is not one path element.
    public init?(adapter name: String) {
        guard !name.contains("/"), let root = DBusObjectPath(BlueZNames.root.rawValue + "/" + name) else {
            return nil
        }
        self.root = root
    }

    /// Whether the object at `path` lies in the mirrored subtree.
    public func contains(_ path: DBusObjectPath) -> Bool {
        path.isDescendant(of: root)
    }

    /// The match rules that route this subtree's changes here and none from outside it.
    ///
    /// `arg0path` with a trailing `/` matches the objects below `root` but not `root` itself, so a second
    /// rule names `root` exactly. Each object in the subtree matches exactly one of the two; both also match
    /// `/` (an `arg0path` rule matches every prefix of its path that ends in `/`), which no scope contains,
    /// so the client drops it like any other change from outside.
    public var rules: [DBusMatchRule] {
        [
            DBusMatchRule(
                sender: BlueZNames.service, interface: BlueZNames.objectManager, arg0Path: root.rawValue + "/"),
            DBusMatchRule(sender: BlueZNames.service, interface: BlueZNames.objectManager, arg0Path: root.rawValue),
            DBusMatchRule(
                sender: BlueZNames.service, interface: BlueZNames.properties, member: "PropertiesChanged",
                pathNamespace: root),
        ]
    }
}
