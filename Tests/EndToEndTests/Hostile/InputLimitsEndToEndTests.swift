import Foundation
import TestSupport
import Testing

/// Classes 3, 7 (unit files and arguments) and the usage half of 9: every number, name and line a
/// user gives is taken exactly, range-checked, and refused with exit 2 before any bus is touched.
@Suite struct InputLimitsEndToEndTests {
    @Test func hugeSpansAndImpossibleDatesAreUsageErrors() async throws {
        var random = SplitMix64(seed: 0x5113)
        var values: [String] = [
            "2024-02-30", "2023-02-29", "2024-13-01", "2024-00-10", "2024-04-31",
            "2024-01-01T24:00:00Z", "2024-01-01T23:60:00", "2024-01-01T23:59:60Z", "1e20d", "-5m", "+", "d", "",
        ]
        for _ in 0..<5 {
            let digits = String((0..<(10 + random.below(30))).map { _ in Character(String(random.below(10))) })
            values.append("1" + digits + ["m", "h", "d"][random.below(3)])
        }
        for value in values {
            try await HostileRun.expect(
                ["report", "--format", "csv", "--db", "/nonexistent/records.sqlite", "--since", value], status: 2,
                code: "usage.invalid-option")
        }
    }

    /// Seconds are decimal digits: `Double` alone would take hex, exponents, signs, `nan` and `inf`.
    @Test func secondsOptionsTakeOnlyDecimalDigits() async throws {
        var random = SplitMix64(seed: 0x5EC0)
        let options: [[String]] = [
            ["scan", "--duration"], ["ble", "--ssid", "Net", "--scan-timeout"], ["discover", "--listen"],
            ["batch", "--ssid", "Net", "--attempt-timeout"], ["batch", "--ssid", "Net", "--scan-timeout"],
            ["doctor", "--timeout"], ["discover", "--timeout"],
        ]
        var spellings = [
            "0x10", "0X1p4", "1e1", "1E+1", "+5", "-5", "nan", "inf", "Infinity", " 5", "5 ", "1.2.3", ".", "５", "٣",
        ]
        for _ in 0..<4 {
            let digits = String((0..<(1 + random.below(3))).map { _ in Character(String(random.below(10))) })
            spellings.append(["0x", "+", "-", "0b"][random.below(4)] + digits)
            spellings.append(digits + ["e2", "e-1", "p1", "_0"][random.below(4)])
        }
        for option in options {
            for value in HostileRun.pick(6, of: spellings, &random) {
                try await HostileRun.expect(option + [value], status: 2, code: "usage.invalid-option")
            }
        }
    }

    @Test func stationProfileNumbersNeverTrap() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0x9F0F)
        var numbers = ["1e20", "-1e20", "1e308", "-1e308", "1.5e300", "123456789012345678901234567890"]
        for _ in 0..<3 {
            numbers.append(String((0..<(19 + random.below(20))).map { _ in Character(String(1 + random.below(9))) }))
        }
        for (index, number) in numbers.enumerated() {
            for key in HostileRun.pick(
                2, of: ["retries", "scan-timeout", "attempt-timeout", "port", "lan-port"], &random)
            {
                let profile = try HostileRun.file(
                    "profile\(index)-\(key).json", Array("{\"\(key)\": \(number)}".utf8), in: directory)
                try await HostileRun.expect(
                    ["batch", "--config", profile, "--ssid", "Net", "--password-file", profile], status: 2)
            }
        }
    }

    @Test func portsHostsAreasAndAdaptersAreCheckedBeforeAnyBus() async throws {
        var random = SplitMix64(seed: 0xAD4E)
        let handoff = ["handoff", "--device-id", "a1b2c3d4e5f6", "--access-token-env", "T"]
        var cases: [[String]] = [
            ["discover", "--lan-port", "0"], ["discover", "--lan-port", "65536"],
            handoff + ["--area-id", "1", "--port", "0"], handoff + ["--area-id", "1", "--port", "70000"],
            handoff + ["--area-id", "18446744073709551616"], handoff + ["--area-id", "-1"],
            handoff + ["--area-id", "1e3"], handoff + ["--area-id", ""],
            handoff + ["--area-id", "1", "--server", "http://sc.test"],
            handoff + ["--area-id", "1", "--server", "a b"],
            handoff + ["--area-id", "1", "--mqtt-server", "mqtt.test"],
            handoff + ["--area-id", "1", "--mqtt-server", "mqtt.test:0"],
            handoff + ["--area-id", "1", "--mqtt-server", "mqtt.test:99999"],
            handoff + ["--area-id", "1", "--sc-url", "https://sc.test:0"],
        ]
        let junk = Array("!@#$%^&*()_+=[]{};'\\\"|<>?,./` ~éß漢")
        for _ in 0..<4 {
            let name = String((0..<(1 + random.below(12))).map { _ in junk[random.below(junk.count)] })
            cases += HostileRun.pick(
                2,
                of: [
                    ["ble", "--ssid", "Net", "--open-network", "--adapter", name], ["scan", "--adapter", "hci" + name],
                    handoff + ["--area-id", name], handoff + ["--area-id", "1", "--server", name],
                ], &random)
        }
        for arguments in cases {
            try await HostileRun.expect(arguments, environment: ["T": "token"], status: 2)
        }
    }

    @Test func everyPathChecksTheWiFiPassphraseRuleInBytesUpFront() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0x9A55)
        var passwords = ["é" + String(repeating: "a", count: 62), String(repeating: "g", count: 64), "short"]
        for _ in 0..<4 {
            let length = [1 + random.below(7), 65 + random.below(100)][random.below(2)]
            passwords.append(String((0..<length).map { _ in Character(String(random.below(10))) }))
        }
        let units = try HostileRun.file("units.csv", Array("ZT_UNIT1\n".utf8), in: directory)
        for (index, password) in passwords.enumerated() {
            let file = try HostileRun.file("pw\(index)", Array((password + "\n").utf8), in: directory)
            let commands = [
                ["ble", "--ssid", "Net", "--password-file", file],
                ["softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--password-file", file],
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--password-file", file, "--devices", units,
                    "--db", directory.appending(path: "r.sqlite").path,
                ],
                [
                    "batch", "--ssid", "Net", "--password-file", file, "--devices", units,
                    "--db", directory.appending(path: "r.sqlite").path,
                ],
            ]
            for arguments in HostileRun.pick(2, of: commands, &random) {
                try await HostileRun.expect(arguments, status: 2, secrets: [password].filter { $0.count > 6 })
            }
        }
        // 64 hex digits are a raw WPA key, and pass the check (the run then needs the missing bus).
        let key = try HostileRun.file("key", Array((String(repeating: "aB3", count: 21) + "f\n").utf8), in: directory)
        try await HostileRun.expect(["ble", "--ssid", "Net", "--password-file", key], status: 3)
    }

    @Test func crlfUnitFilesSplitIntoUnitsWithAndWithoutAHeader() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = try HostileRun.file("pw", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0xC41F)
        for round in 0..<5 {
            let header = round % 2 == 0
            let count = 1 + random.below(5)
            var lines = header ? ["ssid,pop"] : []
            lines += (0..<count).map { "ZT_UNIT\($0),pop\($0)" }
            lines.append("ZT_BAD,pop,extra,fields")
            let text = lines.map { $0 + (random.below(3) == 0 ? "\n" : "\r\n") }.joined()
            let units = try HostileRun.file("units\(round).csv", Array(text.utf8), in: directory)
            let outcome = try await HostileRun.expect(
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--password-file", password, "--devices", units,
                    "--db", directory.appending(path: "r.sqlite").path,
                ],
                status: 2, code: "batch.bad-input")
            #expect(outcome.standardError.contains("line \(lines.count) "), "\(text.debugDescription) → \(outcome)")
        }
    }

    /// A units file saved by a spreadsheet as "CSV UTF-8" (byte order mark, header, CRLF) is read: the
    /// run gets past the units to the (missing) bus, exit 3, instead of `batch.bad-input`.
    @Test func spreadsheetCSVWithAByteOrderMarkIsRead() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = try HostileRun.file("pw", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0xEFBB_BF00)
        for round in 0..<4 {
            var header = ["ssid", "pop", "adapter"].filter { $0 != "adapter" || random.chance(50) }
            header.shuffle(using: &random)
            let rows = (0..<(1 + random.below(3))).map { unit in
                header.map { $0 == "ssid" ? "ZT_UNIT\(unit)" : $0 == "pop" ? "pop\(unit)" : "" }.joined(separator: ",")
            }
            let text = ([header.joined(separator: ",")] + rows).map { $0 + "\r\n" }.joined()
            let units = try HostileRun.file("units\(round).csv", [0xEF, 0xBB, 0xBF] + Array(text.utf8), in: directory)
            let outcome = try await HostileRun.expect(
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--password-file", password, "--devices", units,
                    "--db", directory.appending(path: "r.sqlite").path,
                ],
                status: 3)
            #expect(!outcome.standardError.contains("batch.bad-input"), "\(text.debugDescription) → \(outcome)")
        }
    }

    @Test func unitLinesAndArgumentsThatAreNotTextAreRefused() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = try HostileRun.file("pw", Array("correct horse\n".utf8), in: directory)
        for (index, spoiler) in [[0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80]].enumerated() {
            let line = Array("ZT_".utf8) + spoiler.map(UInt8.init) + Array("UNIT\n".utf8)
            let units = try HostileRun.file("units\(index).csv", line, in: directory)
            try await HostileRun.expect(
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--password-file", password, "--devices", units,
                    "--db", directory.appending(path: "r.sqlite").path,
                ],
                status: 2, code: "batch.bad-input")
            guard spoiler != [0x00] else { continue }
            // An SSID argument with the same bytes, through a shell since Foundation passes only strings.
            let escaped = spoiler.map { "\\" + String($0, radix: 8) }.joined()
            var launch = ProcessLaunch(
                "/bin/sh",
                [
                    "-c", "exec \"$0\" ble --ssid \"$(printf 'Net\(escaped)')\" --open-network",
                    try ZTProvProcess.executable(),
                ])
            launch.environment = HostileRun.noBus
            let outcome = try await launch.run()
            #expect(outcome.termination == .exited(2), "\(spoiler): \(outcome)")
            #expect(outcome.standardError.contains("error[usage.invalid-option]: Argument 3 is not valid UTF-8"))
        }
        // A NUL spelt as a JSON escape inside a QR payload, in any field, anywhere in it.
        var random = SplitMix64(seed: 0x0000_9A11)
        for round in 0..<8 {
            let transport = ["ble", "softap", nil][random.below(3)]
            // Only a protocomm unit (`"transport":"ble"`) uses the username.
            let field = ["name", "pop", "username"][random.below(transport == "ble" ? 3 : 2)]
            var fields = ["name": "PROV_\(round)", "pop": "abcd1234", "username": "wifiprov"]
            var value = Array(fields[field]!)
            value.insert(contentsOf: ["\\u0000", "\\u0000\\u0000"][random.below(2)], at: random.below(value.count + 1))
            fields[field] = String(value)
            let payload =
                "{"
                + (["\"ver\":\"v1\""] + fields.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value)\"" }
                + (transport.map { ["\"transport\":\"\($0)\""] } ?? [])).joined(separator: ",") + "}"
            let units = try HostileRun.file("qr\(round).txt", Array((payload + "\n").utf8), in: directory)
            let path = transport == "softap" ? "softap" : "ble"
            try await HostileRun.expect(
                [
                    "batch", "--path", path, "--ssid", "Net", "--password-file", password, "--devices", units,
                    "--db", directory.appending(path: "r\(round).sqlite").path,
                ],
                status: 2, code: "batch.bad-input")
            guard transport == "ble" else { continue }
            try await HostileRun.expect(
                ["ble", "--ssid", "Net", "--password-file", password, "--qr-file", units], status: 2,
                code: "usage.invalid-option")
        }
        let profile = try HostileRun.file("nul.json", Array("{\"ssid\": \"Net\\u0000x\"}".utf8), in: directory)
        try await HostileRun.expect(
            ["batch", "--config", profile, "--open-network"], status: 2, code: "usage.invalid-option")
    }
}
