import Protocomm
import Provisioning
import Records
import TestSupport
import Testing

@Suite struct BatchInputParserTests {
    private func parse(_ lines: [String], path: ProvisioningPath = .ble) throws -> [BatchDevice] {
        var parser = BatchInputParser(path: path)
        return try lines.compactMap { try parser.parse(Substring($0)) }
    }

    @Test func headerRowsTakeTheirColumnsInAnyOrder() throws {
        let devices = try parse([
            "# station 3, shift B", "name, address ,pop,adapter", "\"MH-01, left\",24:0a:c4:00:00:01,abcd,hci1",
            "", "MH-02,,\"p\"\"q\",",
        ])
        #expect(devices.count == 2)
        #expect(devices[0].name == "MH-01, left")
        #expect(devices[0].address == "24:0A:C4:00:00:01")
        #expect(devices[0].key == "24:0A:C4:00:00:01")
        #expect(devices[0].proofOfPossession?.revealed() == "abcd")
        #expect(devices[0].lane == "hci1")
        #expect(devices[0].line == 3)
        #expect(devices[1].address == nil)
        #expect(devices[1].key == "MH-02")
        #expect(devices[1].proofOfPossession?.revealed() == "p\"q")
        #expect(devices[1].lane == nil)
    }

    /// A spreadsheet's "CSV UTF-8" (a byte order mark, a header in any column order, CRLF line ends)
    /// reads as the same units as the plain file, and no name, SSID or PoP starts with the mark.
    @Test func aByteOrderMarkStartsTheInputAndNeverAUnit() throws {
        var random = SplitMix64(seed: 0xFEFF)
        let columns = ["address", "name", "ssid", "pop", "adapter"]
        for _ in 0..<200 {
            var header = columns.filter { _ in random.chance(60) }
            if !header.contains("name") && !header.contains("address") && !header.contains("ssid") {
                header.append(["name", "ssid"][random.below(2)])
            }
            header.shuffle(using: &random)
            let count = 1 + random.below(4)
            let rows = (0..<count).map { unit in
                header.map { column in
                    switch column {
                    case "address": "24:0A:C4:00:00:0\(unit)"
                    case "adapter": "hci\(unit)"
                    default: "\(column)-\(unit)"
                    }
                }.joined(separator: ",")
            }
            let lineEnd = random.chance(50) ? "\r\n" : "\n"
            let text =
                "\u{FEFF}"
                + ([header.joined(separator: random.chance(50) ? "," : ", ")] + rows)
                .map { $0 + lineEnd }.joined()
            for path in [ProvisioningPath.ble, .softAP] where header.contains(path == .ble ? "name" : "ssid") {
                var parser = BatchInputParser(path: path)
                let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                let devices = try lines.compactMap { try parser.parse($0) }
                #expect(devices.count == count, "\(text.debugDescription)")
                let texts = devices.flatMap {
                    [$0.address, $0.name, $0.hotspotSSID, $0.lane, $0.proofOfPossession?.revealed()]
                }
                #expect(!texts.contains { $0?.unicodeScalars.contains("\u{FEFF}") == true }, "\(text.debugDescription)")
            }
        }
        // Bare rows too: the mark goes, the name stays whole.
        for name in ["ZT_UNIT1", "MH-0003", "24:0A:C4:AA:BB:CC"] {
            var parser = BatchInputParser(path: .ble)
            let device = try parser.parse("\u{FEFF}\(name)")
            #expect(device?.key == name)
        }
    }

    @Test func bareLinesAreAddressesNamesOrHotspots() throws {
        let ble = try parse(["24:0A:C4:AA:BB:CC", "MH-0003,pop-9"])
        #expect(ble.map(\.address) == ["24:0A:C4:AA:BB:CC", nil])
        #expect(ble.map(\.name) == [nil, "MH-0003"])
        #expect(ble[1].proofOfPossession?.revealed() == "pop-9")
        let softAP = try parse(["ZT_1A2B3C,pop-1"], path: .softAP)
        #expect(softAP.map(\.hotspotSSID) == ["ZT_1A2B3C"])
        #expect(softAP.map(\.key) == ["ZT_1A2B3C"])
    }

    @Test func espressifQRPayloadsNameTheUnit() throws {
        let softAP = try parse(
            [#"{"ver":"v1","name":"PROV_1A2B3C","pop":"abcd1234","transport":"softap"}"#], path: .softAP)
        #expect(softAP.first?.hotspotSSID == "PROV_1A2B3C")
        #expect(softAP.first?.proofOfPossession?.revealed() == "abcd1234")
        let ble = try parse([#"{"ver":"v1","name":"PROV_9","transport":"ble"}"#])
        #expect(ble.first?.name == "PROV_9")
    }

    /// A BLE payload comes from ESP provisioning firmware: the unit runs protocomm with its security,
    /// username and PoP; one without a transport stays a BluFi unit named by its name.
    @Test func bleQRPayloadsMakeProtocommUnits() throws {
        let units = try parse([
            #"{"ver":"v1","name":"PROV_1","pop":"s3cret","transport":"ble","security":2,"username":"line"}"#,
            #"{"ver":"v1","name":"PROV_2","transport":"BLE","security":"1","network":"wifi"}"#,
            #"{"ver":"v1","name":"MH-3","pop":"abcd"}"#,
        ])
        #expect(units[0].protocomm == BatchProtocommUnit(security: .security2, username: "line"))
        #expect(units[0].proofOfPossession?.revealed() == "s3cret")
        #expect(units[1].protocomm == BatchProtocommUnit(security: .security1))
        #expect(units[2].protocomm == nil && units[2].name == "MH-3")
        for (line, reason) in [
            (#"{"name":"PROV_4","transport":"ble","network":"thread"}"#, "for a Thread unit"),
            (#"{"name":"PROV_5","transport":"ble","security":7}"#, "unusable"),
            (#"{"name":"PROV_6","transport":"ble","security":true}"#, "unusable"),
        ] {
            let error = try #require(throws: ProvisioningError.self) { try parse([line]) }
            #expect(error.code == .batchBadInput && error.message.contains(reason), "\(error)")
        }
    }

    @Test(arguments: [
        (["address,colour"], 1, "field 2 of the header is not a known column"),
        (["address,address"], 1, "a column twice"),
        (["name", "MH-1,extra"], 2, "2 fields but the header names 1"),
        (["address", "24:0A:C4:00:00"], 2, "is not a BLE address"),
        (["a,b,c"], 1, "expected TARGET or TARGET,POP"),
        (["\"MH-1"], 1, "a quote is not closed"),
        (["ssid", "MH-1"], 2, "needs an address or a name"),
        ([#"{"name":"PROV_1","transport":"softap"}"#], 1, "transport is not ble"),
        (["{not json"], 1, "not JSON"),
    ])
    func unusableLinesNameTheirLine(lines: [String], line: Int, reason: String) throws {
        let error = try #require(throws: ProvisioningError.self) { try parse(lines) }
        #expect(error.code == .batchBadInput)
        #expect(error.exitStatus == .usage)
        #expect(error.message.hasPrefix("Batch input line \(line) cannot be used: "))
        #expect(error.message.contains(reason), "\(error.message)")
        #expect(error.hint.contains("ztprov batch --help"))
    }

    @Test func aHotspotSSIDMustFitWiFi() throws {
        let error = try #require(throws: ProvisioningError.self) {
            try parse([String(repeating: "x", count: 33)], path: .softAP)
        }
        #expect(error.message.contains("1 to 32 bytes"))
    }
}
