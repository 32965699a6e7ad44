import Foundation
import Testing

@testable import BlueZ
@testable import DBus

@Suite struct BlueZSelectionTests {
    struct FixedSlots: BlueZSlotLookup {
        let slots: [Int: String]
        func controllerName(forSlot slot: Int) throws -> String? { slots[slot] }
    }

    static func adapter(_ name: String, _ address: String, powered: Bool = true, state: String? = nil) -> BlueZAdapter {
        var properties: [String: DBusValue] = ["Address": .string(address), "Powered": .boolean(powered)]
        if let state { properties["PowerState"] = .string(state) }
        return BlueZAdapter(path: DBusObjectPath("/org/bluez/\(name)")!, properties: properties)
    }

    static let adapters = [adapter("hci0", "00:AA:BB:CC:DD:00", powered: false), adapter("hci1", "00:AA:BB:CC:DD:01")]

    @Test(arguments: [
        ("hci2", BlueZAdapterSelector.name("hci2")), ("00:aa:bb:cc:dd:01", .address("00:AA:BB:CC:DD:01")),
        ("slot:3", .slot(3)),
    ])
    func parsesSelections(text: String, selector: BlueZAdapterSelector) {
        #expect(BlueZAdapterSelector(text) == selector)
    }

    @Test(arguments: ["hci", "slot:-1", "slot:x", "00:AA:BB", "usb0"])
    func rejectsOtherText(text: String) {
        #expect(BlueZAdapterSelector(text) == nil)
    }

    @Test func selectsByNameAddressAndSlot() throws {
        let slots = FixedSlots(slots: [2: "hci1"])
        #expect(
            try BlueZAdapterSelector.address("00:aa:bb:cc:dd:01").select(from: Self.adapters, slots: slots).name
                == "hci1")
        #expect(try BlueZAdapterSelector.slot(2).select(from: Self.adapters, slots: slots).name == "hci1")
        #expect(try BlueZAdapterSelector.firstPowered.select(from: Self.adapters, slots: slots).name == "hci1")
    }

    @Test func explainsWhyNoAdapterFits() {
        let slots = FixedSlots(slots: [:])
        #expect(throws: BlueZError.noAdapter) { try BlueZAdapterSelector.firstPowered.select(from: [], slots: slots) }
        #expect(throws: BlueZError.adapterNotFound("hci7")) {
            try BlueZAdapterSelector.name("hci7").select(from: Self.adapters, slots: slots)
        }
        #expect(throws: BlueZError.adapterNotFound("slot:1")) {
            try BlueZAdapterSelector.slot(1).select(from: Self.adapters, slots: slots)
        }
        #expect(throws: BlueZError.adapterPoweredOff("hci0")) {
            try BlueZAdapterSelector.name("hci0").select(from: Self.adapters, slots: slots)
        }
        let blocked = [Self.adapter("hci0", "00:AA:BB:CC:DD:00", powered: false, state: "off-blocked")]
        #expect(throws: BlueZError.adapterBlocked("hci0")) {
            try BlueZAdapterSelector.firstPowered.select(from: blocked, slots: slots)
        }
    }

    /// bluetoothd 5.66 says only `off` for an adapter rfkill blocked while it was up; the switch says why.
    @Test func anAdapterOffBecauseOfRfkillIsBlockedNotPoweredOff() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-rfkill-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for (controller, soft, hard) in [("hci0", "1", "0"), ("hci1", "0", "1"), ("hci2", "0", "0")] {
            let switchDirectory = root.appendingPathComponent("\(controller)/rfkill\(controller.dropFirst(3))")
            try FileManager.default.createDirectory(at: switchDirectory, withIntermediateDirectories: true)
            try "\(soft)\n".write(to: switchDirectory.appendingPathComponent("soft"), atomically: true, encoding: .utf8)
            try "\(hard)\n".write(to: switchDirectory.appendingPathComponent("hard"), atomically: true, encoding: .utf8)
        }
        let radio = SysfsRadioSwitch(controllersDirectory: root.path)
        let slots = FixedSlots(slots: [:])
        let off = ["hci0", "hci1", "hci2"].map { Self.adapter($0, "00:AA:BB:CC:DD:00", powered: false, state: "off") }
        for name in ["hci0", "hci1"] {
            #expect(throws: BlueZError.adapterBlocked(name)) {
                try BlueZAdapterSelector.name(name).select(from: off, slots: slots, radio: radio)
            }
        }
        #expect(throws: BlueZError.adapterPoweredOff("hci2")) {
            try BlueZAdapterSelector.name("hci2").select(from: off, slots: slots, radio: radio)
        }
        #expect(throws: BlueZError.adapterPoweredOff("hci3")) {
            try BlueZAdapterSelector.name("hci3").select(
                from: [Self.adapter("hci3", "00:AA:BB:CC:DD:03", powered: false)], slots: slots, radio: radio)
        }
    }

    @Test func readsSlotsFromTheUdevDatabase() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ztprov-udev-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let controllers = root.appendingPathComponent("class")
        let data = root.appendingPathComponent("data")
        for name in ["hci0", "hci1", "hci1:64"] {
            try FileManager.default.createDirectory(
                at: controllers.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "E:ID_PATH=pci-0000:00:14.0-usb-0:1:1.0\nE:ZTPROV_SLOT=1\n".write(
            to: data.appendingPathComponent("+bluetooth:hci0"), atomically: true, encoding: .utf8)
        try "E:ZTPROV_SLOT=12\nG:systemd\n".write(
            to: data.appendingPathComponent("+bluetooth:hci1"), atomically: true, encoding: .utf8)
        let lookup = UdevSlotLookup(controllersDirectory: controllers.path, udevDataDirectory: data.path)
        #expect(try lookup.controllerName(forSlot: 1) == "hci0")
        #expect(try lookup.controllerName(forSlot: 12) == "hci1")
        #expect(try lookup.controllerName(forSlot: 2) == nil)
        // What `doctor` shows for each controller comes from the same reading.
        #expect(lookup.slot(ofController: "hci1") == 12)
        #expect(lookup.slot(ofController: "hci7") == nil)
    }
}

@Suite struct BlueZScanFilterTests {
    static func device(name: String?, uuids: [String], address: String = "24:0A:C4:12:34:56") -> BlueZDevice {
        var properties: [String: DBusValue] = ["Address": .string(address), "UUIDs": .stringArray(uuids)]
        if let name { properties["Name"] = .string(name) }
        return BlueZDevice(path: DBusObjectPath("/org/bluez/hci0/dev_1")!, properties: properties)
    }

    @Test func requiresEveryGivenCriterion() {
        let bluFi = Self.device(name: "BLUFI_DEVICE", uuids: ["0000FFFF-0000-1000-8000-00805F9B34FB"])
        let nameless = Self.device(name: nil, uuids: ["0000ffff-0000-1000-8000-00805f9b34fb"])
        let other = Self.device(name: "BLUFI_X", uuids: ["0000181a-0000-1000-8000-00805f9b34fb"])
        #expect(BlueZScanFilter.bluFi.matches(bluFi))
        #expect(BlueZScanFilter.bluFi.matches(nameless))
        #expect(!BlueZScanFilter.bluFi.matches(other))
        let both = BlueZScanFilter(serviceUUIDs: ["ffff"], namePrefix: "BLUFI_")
        #expect(both.matches(bluFi))
        #expect(!both.matches(nameless))
        #expect(!both.matches(other))
        #expect(BlueZScanFilter(address: "24:0a:c4:12:34:56").matches(other))
        #expect(!BlueZScanFilter(address: "24:0A:C4:12:34:57").matches(other))
    }

    @Test func anExactNameDoesNotMatchLongerNames() {
        let filter = BlueZScanFilter(name: "MH-1")
        #expect(filter.matches(Self.device(name: "MH-1", uuids: [])))
        #expect(!filter.matches(Self.device(name: "MH-10", uuids: [])))
        #expect(!filter.matches(Self.device(name: nil, uuids: [])))
        #expect(filter.discoveryFilter.stringKeyed?["Pattern"]?.string == "MH-1")
    }

    @Test func asksBlueZForLEOnlyWithUUIDsAndPattern() {
        let filter = BlueZScanFilter(serviceUUIDs: ["ffff"], namePrefix: "BLUFI_").discoveryFilter.stringKeyed
        #expect(filter?["Transport"]?.string == "le")
        #expect(filter?["UUIDs"]?.strings == ["0000ffff-0000-1000-8000-00805f9b34fb"])
        #expect(filter?["Pattern"]?.string == "BLUFI_")
        #expect(BlueZScanFilter().discoveryFilter.stringKeyed?.keys.sorted() == ["Transport"])
    }
}
