import Testing
import Transports

@testable import BlueZ
@testable import DBus

@Suite struct BlueZObjectTreeTests {
    typealias P = BlueZPayloads

    func treeWithDevice() throws -> BlueZObjectTree {
        var tree = BlueZObjectTree()
        tree.apply(try P.snapshot())
        tree.apply(
            try P.added(P.device, ["org.bluez.Device1": P.deviceProperties, "org.freedesktop.DBus.Properties": [:]]))
        return tree
    }

    @Test func mirrorsTheSnapshot() throws {
        var tree = BlueZObjectTree()
        tree.apply(try P.snapshot())
        let adapter = try #require(tree.adapters.first)
        #expect(adapter.name == "hci0")
        #expect(adapter.address == "00:AA:BB:CC:DD:00")
        #expect(adapter.isPowered)
        #expect(adapter.powerState == "on")
    }

    @Test func addsADeviceWithItsAdvertisement() throws {
        let device = try #require(try treeWithDevice().devices(on: P.adapter).first)
        #expect(device.address == "24:0A:C4:12:34:56")
        #expect(device.rssi == -52)
        #expect(device.serviceUUIDs == [BlueZScanFilter.bluFiServiceUUID])
        #expect(device.manufacturerData == [0x02E5: [1, 2]])
        #expect(!device.isConnected)
    }

    @Test func mergesChangedAndDropsInvalidatedProperties() throws {
        var tree = try treeWithDevice()
        tree.apply(
            try P.changed(
                P.device, BlueZNames.device, ["RSSI": .int16(-70), "Connected": .boolean(true)], invalidated: ["Name"]))
        let device = try #require(tree.device(at: P.device))
        #expect(device.rssi == -70)
        #expect(device.isConnected)
        #expect(device.name == nil)
        #expect(device.address == "24:0A:C4:12:34:56")
    }

    @Test func readsServiceDataByNormalizedUUID() throws {
        var tree = try treeWithDevice()
        let data = DBusValue.properties(["00004677-0000-1000-8000-00805F9B34FB": .bytes([2, 15, 0, 0, 0, 0])])
        tree.apply(try P.changed(P.device, BlueZNames.device, ["ServiceData": data], invalidated: []))
        let device = try #require(tree.device(at: P.device))
        #expect(device.serviceData == ["00004677-0000-1000-8000-00805f9b34fb": [2, 15, 0, 0, 0, 0]])
    }

    @Test func ignoresChangesForObjectsItDoesNotHold() throws {
        var tree = try treeWithDevice()
        let before = tree
        tree.apply(
            try P.changed(
                DBusObjectPath("/org/bluez/hci0/dev_00_00_00_00_00_01")!, BlueZNames.device, ["RSSI": .int16(-1)]))
        tree.apply(try P.changed(P.device, BlueZNames.gattService, ["UUID": .string("x")]))
        #expect(tree == before)
    }

    @Test func removesInterfacesAndThenTheObject() throws {
        var tree = try treeWithDevice()
        for event in try P.resolvedProfile() { tree.apply(event) }
        #expect(tree.services(of: P.device).count == 1)
        // bluetoothd lists only the removed interface; the mock adds org.freedesktop.DBus.Properties.
        tree.apply(try P.removed(P.notify, [BlueZNames.gattCharacteristic, "org.freedesktop.DBus.Properties"]))
        #expect(tree.objects[P.notify] == nil)
        #expect(tree.characteristics(of: P.service).map(\.path) == [P.write])
        tree.apply(try P.removed(P.device, [BlueZNames.device]))
        #expect(tree.device(at: P.device) == nil)
        #expect(tree.objects[P.device] != nil, "the Properties interface still lists the object")
    }

    @Test func buildsTheGATTDatabaseUnderTheDevice() throws {
        var tree = try treeWithDevice()
        #expect(tree.gattServices(of: P.device).isEmpty)
        #expect(tree.mtu(of: P.device) == nil)
        for event in try P.resolvedProfile() { tree.apply(event) }
        let service = try #require(
            tree.gattServices(of: P.device).first { $0.uuid == BlueZScanFilter.bluFiServiceUUID })
        let write = try #require(service.characteristic("ff01"))
        let notify = try #require(service.characteristic("ff02"))
        #expect(write.id == GATTAttributeID(P.write.rawValue))
        #expect(notify.id == GATTAttributeID(P.notify.rawValue))
        #expect(tree.mtu(of: P.device) == 247)
        #expect(notify.properties == [.read, .notify])
        #expect(tree.device(at: P.device)?.servicesResolved == true)
    }

    @Test func decodesOnlyObjectManagerAndPropertiesSignals() throws {
        let other = try P.signal(
            .root, "org.freedesktop.DBus", "NameOwnerChanged", [.string("a"), .string(""), .string(":1.2")])
        #expect(BlueZObjectEvent(signal: other) == nil)
        let malformed = try P.signal(.root, BlueZNames.objectManager, "InterfacesAdded", [.string("not a path")])
        #expect(BlueZObjectEvent(signal: malformed) == nil)
    }

    @Test func reportsSightingsOfNewAndCachedDevicesOnly() throws {
        let tree = try treeWithDevice()
        let added = try P.added(P.device, ["org.bluez.Device1": P.deviceProperties])
        let rssi = try P.changed(P.device, BlueZNames.device, ["RSSI": .int16(-60)])
        let connected = try P.changed(P.device, BlueZNames.device, ["Connected": .boolean(true)])
        #expect(BlueZClient.sighting(added, tree, adapter: P.adapter, filter: .bluFi)?.path == P.device)
        #expect(BlueZClient.sighting(rssi, tree, adapter: P.adapter, filter: .bluFi)?.path == P.device)
        #expect(BlueZClient.sighting(connected, tree, adapter: P.adapter, filter: .bluFi) == nil)
        let otherAdapter = DBusObjectPath("/org/bluez/hci1")!
        #expect(BlueZClient.sighting(rssi, tree, adapter: otherAdapter, filter: .bluFi) == nil)
        #expect(
            BlueZClient.sighting(rssi, tree, adapter: P.adapter, filter: BlueZScanFilter(namePrefix: "ESP_")) == nil)
    }
}
