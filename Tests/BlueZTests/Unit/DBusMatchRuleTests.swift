import Testing

@testable import BlueZ
@testable import DBus

@Suite struct DBusMatchRuleTests {
    static func signal(_ path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [])
        -> DBusSignal
    {
        DBusSignal(
            sender: ":1.7", path: DBusObjectPath(path)!, interface: interface, member: member, arguments: arguments)
    }

    @Test func printsTheBusTextForm() {
        let rule = DBusMatchRule(
            sender: "org.bluez", interface: "org.freedesktop.DBus.ObjectManager", member: "InterfacesAdded",
            arg0Path: "/org/bluez/")
        #expect(
            rule.text == "type='signal',sender='org.bluez',interface='org.freedesktop.DBus.ObjectManager',"
                + "member='InterfacesAdded',arg0path='/org/bluez/'")
    }

    @Test func matchesByPathNamespace() {
        let rule = DBusMatchRule(
            interface: "org.freedesktop.DBus.Properties", pathNamespace: DBusObjectPath("/org/bluez")!)
        #expect(rule.matches(Self.signal("/org/bluez/hci0", "org.freedesktop.DBus.Properties", "PropertiesChanged")))
        #expect(rule.matches(Self.signal("/org/bluez", "org.freedesktop.DBus.Properties", "PropertiesChanged")))
        #expect(!rule.matches(Self.signal("/org/bluezz", "org.freedesktop.DBus.Properties", "PropertiesChanged")))
        #expect(!rule.matches(Self.signal("/org/bluez/hci0", "org.bluez.Adapter1", "PropertiesChanged")))
    }

    @Test func matchesArg0PathAsTheSpecDefinesIt() {
        let rule = DBusMatchRule(member: "InterfacesAdded", arg0Path: "/org/bluez/")
        let added = { (path: String) in
            Self.signal(
                "/", "org.freedesktop.DBus.ObjectManager", "InterfacesAdded", [.objectPath(DBusObjectPath(path)!)])
        }
        #expect(rule.matches(added("/org/bluez/hci0")))
        #expect(rule.matches(added("/org/bluez/hci0/dev_00_11_22_33_44_55")))
        #expect(!rule.matches(added("/org/freedesktop")))
        #expect(!rule.matches(Self.signal("/", "x", "InterfacesAdded")))
    }

    @Test func matchesArg0Exactly() {
        let rule = BlueZClient.bluetoothdOwnerRule
        #expect(rule.text.contains("arg0='org.bluez'"))
        let owner = { (name: String) in
            Self.signal(
                "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged",
                [.string(name), .string(":1.4"), .string("")])
        }
        #expect(rule.matches(owner("org.bluez")))
        #expect(!rule.matches(owner("org.bluez.obex")))
    }
}
