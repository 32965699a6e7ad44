import TestSupport
import Testing

@testable import BlueZ
@testable import DBus

@Suite struct DBusValueCodingTests {
    static let device = DBusObjectPath("/org/bluez/hci0/dev_24_0A_C4_12_34_56")!

    static let samples: [DBusValue] = [
        .byte(0xFF), .boolean(true), .boolean(false), .int16(-52), .uint16(0x02E5), .int32(-7), .uint32(7),
        .int64(.min), .uint64(.max), .double(-1.5), .string("BLUFI_DEVICE"), .string(""), .string("ü✓"),
        .objectPath(device), .signature("a{oa{sa{sv}}}"), .bytes([0x1C, 0x00, 0x00, 0x00]), .bytes([]),
        .stringArray(["0000ffff-0000-1000-8000-00805f9b34fb"]), .stringArray([]),
        .properties(["Transport": .string("le"), "UUIDs": .stringArray(["ffff"]), "RSSI": .int16(-80)]),
        .properties([:]),
        .dictionary(
            key: .uint16, value: .variant, [DBusDictionaryEntry(key: .uint16(0x02E5), value: .variant(.bytes([1, 2])))]),
        .structure([.objectPath(device), .uint32(3)]),
        .variant(.variant(.boolean(true))),
        .array(element: .structure([.string, .int32]), [.structure([.string("a"), .int32(1)])]),
        .dictionary(
            key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)),
            [
                DBusDictionaryEntry(
                    key: .objectPath(device),
                    value: .dictionary(
                        key: .string, value: .dictionary(key: .string, value: .variant),
                        [
                            DBusDictionaryEntry(
                                key: .string("org.bluez.Device1"), value: .properties(["Connected": .boolean(false)]))
                        ]))
            ]),
    ]

    @Test(arguments: samples)
    func survivesARoundTripThroughLibdbusWireBytes(value: DBusValue) throws {
        let call = DBusMethodCall(
            destination: "org.bluez", path: Self.device, interface: "org.bluez.Device1", member: "Test",
            arguments: [value, .string("after")])
        let bytes = try DBusWireFormat.marshal(call)
        #expect(try DBusWireFormat.arguments(ofMarshalled: bytes) == [value, .string("after")])
    }

    @Test func marshalsTheWriteValueCallAsTheSpecLaysItOut() throws {
        let call = DBusMethodCall(
            destination: "org.bluez", path: Self.device, interface: "org.bluez.GattCharacteristic1",
            member: "WriteValue",
            arguments: [.bytes([0x1C, 0, 0, 0]), .properties(["type": .string("request")])])
        let bytes = try DBusWireFormat.marshal(call)
        // Little-endian method call; body = ay (length 4, 1c 00 00 00), then a{sv}: array length 24, padding to
        // the 8-byte dict-entry boundary, "type", variant signature "s", "request".
        #expect(bytes.prefix(2) == [0x6C, 0x01])
        let body =
            "04000000" + "1c000000" + "18000000" + "00000000" + "04000000" + "74797065" + "00" + "017300"
            + "07000000" + "72657175657374" + "00"
        #expect(bytes.suffix(40).hexString == body)
    }

    @Test func refusesValuesLibdbusWouldAbortOn() {
        let badArray = DBusValue.array(element: .string, [.int32(1)])
        let badKey = DBusValue.dictionary(key: .variant, value: .string, [])
        let badSignature = DBusValue.signature("a{")
        for value in [badArray, badKey, badSignature, .string("nul\u{0}inside")] {
            let call = DBusMethodCall(
                destination: "x.y", path: .root, interface: "x.y", member: "Z", arguments: [value])
            #expect(throws: DBusError.self) { try DBusWireFormat.marshal(call) }
        }
    }

    @Test(arguments: [
        ("y", DBusType.byte), ("as", .array(.string)), ("a{sv}", .dictionary(key: .string, value: .variant)),
        (
            "a{oa{sa{sv}}}",
            .dictionary(
                key: .objectPath, value: .dictionary(key: .string, value: .dictionary(key: .string, value: .variant)))
        ),
        ("(oa{sv})", .structure([.objectPath, .dictionary(key: .string, value: .variant)])), ("h", .unixFD),
        ("a{qv}", .dictionary(key: .uint16, value: .variant)),
    ])
    func parsesAndPrintsSignatures(signature: String, type: DBusType) {
        #expect(DBusType(signature: signature) == type)
        #expect(type.signature == signature)
    }

    @Test(arguments: ["", "a", "a{vs}", "()", "(i", "ii", "z", "a{sv"])
    func rejectsMalformedSignatures(signature: String) {
        #expect(DBusType(signature: signature) == nil)
    }

    @Test func splitsAMessageSignatureIntoTypes() {
        #expect(
            DBusType.types(inSignature: "sa{sv}as") == [
                .string, .dictionary(key: .string, value: .variant), .array(.string),
            ])
    }

    @Test(arguments: ["/", "/org/bluez", "/org/bluez/hci0/dev_24_0A_C4_12_34_56"])
    func acceptsValidObjectPaths(path: String) {
        #expect(DBusObjectPath(path)?.rawValue == path)
    }

    @Test(arguments: ["", "org", "/org/", "//org", "/org/blue-z", "/org/blüez"])
    func rejectsInvalidObjectPaths(path: String) {
        #expect(DBusObjectPath(path) == nil)
    }

    @Test func walksObjectPaths() {
        #expect(Self.device.parent == DBusObjectPath("/org/bluez/hci0"))
        #expect(DBusObjectPath("/org")!.parent == .root)
        #expect(Self.device.lastComponent == "dev_24_0A_C4_12_34_56")
        #expect(Self.device.isDescendant(of: DBusObjectPath("/org/bluez")!))
        #expect(!DBusObjectPath("/org/bluezz")!.isDescendant(of: DBusObjectPath("/org/bluez")!))
    }

    @Test func readsPropertiesThroughVariants() {
        let properties = DBusValue.properties([
            "Name": .string("BLUFI"), "RSSI": .int16(-60), "Connected": .boolean(true),
        ])
        let decoded = properties.stringKeyed
        #expect(decoded?["Name"]?.string == "BLUFI")
        #expect(decoded?["RSSI"]?.integer == -60)
        #expect(decoded?["Connected"]?.bool == true)
        #expect(decoded?["Name"]?.bool == nil)
    }
}
