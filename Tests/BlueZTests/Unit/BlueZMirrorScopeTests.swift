import Testing

@testable import BlueZ
@testable import DBus

/// The rules a client mirroring one adapter asks the bus for, checked against the signals bluetoothd sends
/// about every kind of object on this and on other adapters (names chosen so that one is a text prefix of
/// another: hci1 and hci10).
@Suite struct BlueZMirrorScopeTests {
    static let adapters = ["hci0", "hci1", "hci2", "hci10", "hci11"]

    /// Every object bluetoothd exports for an adapter: itself, a device, its service, characteristic and
    /// descriptor.
    static func objects(of adapter: String) -> [String] {
        let device = "/org/bluez/\(adapter)/dev_24_0A_C4_12_34_56"
        return [
            "/org/bluez/\(adapter)", device, device + "/service0028", device + "/service0028/char0029",
            device + "/service0028/char0029/desc002b",
        ]
    }

    /// The three signals bluetoothd sends about one object (gdbus/object.c).
    static func signals(about path: String) -> [DBusSignal] {
        let object = DBusValue.objectPath(DBusObjectPath(path)!)
        let manager = "org.freedesktop.DBus.ObjectManager"
        return [
            DBusSignal(
                sender: ":1.3", path: .root, interface: manager, member: "InterfacesAdded",
                arguments: [object, .properties([:])]),
            DBusSignal(
                sender: ":1.3", path: .root, interface: manager, member: "InterfacesRemoved",
                arguments: [object, .array(element: .string, [.string("org.bluez.Device1")])]),
            DBusSignal(
                sender: ":1.3", path: DBusObjectPath(path)!, interface: "org.freedesktop.DBus.Properties",
                member: "PropertiesChanged",
                arguments: [
                    .string("org.bluez.Device1"), .properties(["RSSI": .int16(-50)]), .array(element: .string, []),
                ]
            ),
        ]
    }

    static func routed(_ signal: DBusSignal, to scope: BlueZMirrorScope) -> Bool {
        scope.rules.contains { $0.matches(signal) }
    }

    @Test(arguments: adapters)
    func routesEveryChangeOfItsAdapterAndNoneOfAnother(adapter: String) throws {
        let scope = try #require(BlueZMirrorScope(adapter: adapter))
        for other in Self.adapters {
            for path in Self.objects(of: other) {
                #expect(scope.contains(DBusObjectPath(path)!) == (other == adapter), "\(path)")
                for signal in Self.signals(about: path) {
                    #expect(Self.routed(signal, to: scope) == (other == adapter), "\(signal.member) \(path)")
                }
            }
        }
    }

    @Test func theWholeTreeRoutesEveryAdapter() {
        for path in Self.adapters.flatMap(Self.objects(of:)) {
            #expect(BlueZMirrorScope.allAdapters.contains(DBusObjectPath(path)!))
            for signal in Self.signals(about: path) {
                #expect(Self.routed(signal, to: .allAdapters), "\(signal.member) \(path)")
            }
        }
        let elsewhere = Self.signals(about: "/org/freedesktop/NetworkManager/Devices/1")
        #expect(!elsewhere.contains { Self.routed($0, to: .allAdapters) })
    }

    /// The client applies each signal as often as it is handed one, so no change in a scope may match two of
    /// its rules; the one signal two rules share, about `/`, lies outside every scope.
    @Test(arguments: adapters.map { BlueZMirrorScope(adapter: $0)! } + [.allAdapters])
    func noChangeInTheScopeMatchesTwoRules(scope: BlueZMirrorScope) {
        for path in Self.adapters.flatMap(Self.objects(of:)) + ["/org/bluez", "/"] {
            for signal in Self.signals(about: path) {
                let matches = scope.rules.filter { $0.matches(signal) }.count
                if scope.contains(DBusObjectPath(path)!) {
                    #expect(matches == 1, "\(signal.member) \(path)")
                } else if path == "/" {
                    #expect(matches == (signal.member == "PropertiesChanged" ? 0 : 2), "\(signal.member) \(path)")
                }
            }
        }
    }

    @Test func printsTheRulesInTheBusTextForm() throws {
        let scope = try #require(BlueZMirrorScope(adapter: "hci1"))
        #expect(
            scope.rules.map(\.text) == [
                "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager',"
                    + "arg0path='/org/bluez/hci1/'",
                "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager',"
                    + "arg0path='/org/bluez/hci1'",
                "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.Properties',"
                    + "member='PropertiesChanged',path_namespace='/org/bluez/hci1'",
            ])
    }

    @Test(arguments: ["", "hci0/dev_24_0A_C4_12_34_56", "hci-0", "hci 0", "hci0'", "/hci0", "hci0/"])
    func refusesANameThatIsNotOnePathElement(name: String) {
        #expect(BlueZMirrorScope(adapter: name) == nil)
    }
}
