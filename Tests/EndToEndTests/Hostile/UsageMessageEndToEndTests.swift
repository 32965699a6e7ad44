import Foundation
import TestSupport
import Testing

/// What a user meets first: the command word, numbers, lanes and names, station profiles, and the
/// usage messages themselves. Every value is checked for syntax before the host is touched (the bus is
/// absent, so a run that touched it exits 3), and every usage message names the option and what it
/// takes, in the user's own words and never in Swift's.
@Suite struct UsageMessageEndToEndTests {
    static let commands = OptionSweepEndToEndTests.commands

    /// The options of `command` and their placeholders, as its `--help` lists them.
    static func options(of command: String) async throws -> [(name: String, placeholder: String)] {
        let help = try await ZTProvProcess.launch([command, "--help"]).run().standardOutput
        var seen: Set<String> = []
        return help.matches(of: /(--[a-z0-9-]+) <([a-z0-9-]+)>/).compactMap { match in
            let name = String(match.output.1)
            return seen.insert(name).inserted ? (name, String(match.output.2)) : nil
        }
    }

    /// A usage message as users should read it: no position placeholders for their own words, no
    /// Swift names, and the option (or command) it is about.
    static func expectReadable(
        _ outcome: ProcessOutcome, _ shown: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let line = outcome.standardError.split(separator: "\n").first { $0.hasPrefix("error[") } ?? ""
        #expect(!line.contains("<argument"), "\(shown): \(line)", sourceLocation: sourceLocation)
        #expect(!line.contains("'<value>'"), "\(shown): \(line)", sourceLocation: sourceLocation)
        #expect(
            line.firstMatch(of: /\b[a-z]+[A-Z][a-z]+/) == nil, "Swift name in \(shown): \(line)",
            sourceLocation: sourceLocation)
        #expect(line.contains("--") || line.contains("command"), "\(shown): \(line)", sourceLocation: sourceLocation)
    }

    @Test func noCommandOrAnUnknownOneIsAUsageError() async throws {
        let bare = try await HostileRun.expect([], status: 2, code: "usage.invalid-option")
        #expect(bare.standardError.contains("USAGE: ztprov <subcommand>"), "\(bare)")
        var random = SplitMix64(seed: 0x0019_C0DE)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for name in Self.commands.keys.sorted() {
            var typo = Array(name)
            switch random.below(3) {
            case 0: typo.remove(at: random.below(typo.count))
            case 1: typo.insert(letters[random.below(letters.count)], at: random.below(typo.count + 1))
            default: typo[random.below(typo.count)] = letters[random.below(letters.count)]
            }
            let word = String(typo)
            guard !Self.commands.keys.contains(word), word != "help" else { continue }
            for arguments in [[word], ["help", word], [word, "--help"]] {
                let outcome = try await HostileRun.expect(arguments, status: 2, code: "usage.invalid-option")
                #expect(outcome.standardError.contains("'\(word)'"), "\(arguments): \(outcome)")
                Self.expectReadable(outcome, "\(arguments)")
            }
            let help = try await HostileRun.expect(["help", name], status: 0)
            #expect(help.standardOutput.contains("USAGE: ztprov \(name)"), "\(help)")
        }
    }

    /// Every option of every command given a value of the wrong kind: refused (exit 2) or taken, and
    /// a refusal reads as the user's words, naming the option and, for a choice, the choices.
    @Test func everyUsageErrorNamesTheOptionAndWhatItTakes() async throws {
        var random = SplitMix64(seed: 0x0013_AB1E)
        for (command, base) in Self.commands.sorted(by: { $0.key < $1.key }) {
            for (option, placeholder) in try await Self.options(of: command) {
                let isSecretSource = option.hasSuffix("-file") || option.hasSuffix("-env")
                let value = isSecretSource ? "/nonexistent/x" : ["zzbogus", "report", "x", "-"][random.below(4)]
                var launch = try ZTProvProcess.launch([command] + base + ["\(option)=\(value)"])
                launch.environment = HostileRun.noBus.merging(["HOME": "/nonexistent"]) { $1 }
                launch.deadline = .seconds(20)
                let outcome = try await launch.run()
                let shown = "\(command) \(option)=\(value)"
                guard outcome.termination == .exited(2), outcome.standardError.contains("usage.invalid-option") else {
                    continue
                }
                Self.expectReadable(outcome, shown)
                if outcome.standardError.contains("provide one of") {
                    #expect(outcome.standardError.contains("'\(value)'"), "\(shown) (\(placeholder)): \(outcome)")
                }
            }
        }
        let report = try await HostileRun.expect(
            ["report", "--json", "--db", "/nonexistent/records.sqlite"], status: 3, code: "records.unavailable")
        #expect(!report.standardError.contains("--format json instead"), "\(report)")
    }

    /// A file option given something that is not a readable regular file says so in words.
    @Test func fileRefusalsAreWordsNotSwiftNames() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let large = try HostileRun.file("large", Array(repeating: 0x61, count: 2 << 20), in: directory)
        let fifo = try HostileRun.fifo(in: directory)
        for (command, base) in Self.commands.sorted(by: { $0.key < $1.key }) {
            for (option, _) in try await Self.options(of: command) where option.hasSuffix("-file") {
                for path in [directory.path, "/nonexistent/file", "/dev/null", large, fifo] {
                    var launch = try ZTProvProcess.launch([command] + base + [option, path])
                    launch.environment = HostileRun.noBus.merging(["HOME": "/nonexistent"]) { $1 }
                    launch.deadline = .seconds(20)
                    let outcome = try await launch.run()
                    let line = outcome.standardError.split(separator: "\n").first { $0.hasPrefix("error[") } ?? ""
                    #expect(
                        line.firstMatch(of: /\b[a-z]+[A-Z][a-z]+/) == nil, "\(command) \(option) \(path): \(line)")
                }
            }
        }
    }

    /// Every number option takes decimal digits only, read one way: no sign, no hex, no exponent.
    @Test func everyNumberOptionTakesDecimalDigitsOnly() async throws {
        var random = SplitMix64(seed: 0x0014_0000)
        let numeric: Set<String> = ["seconds", "port", "count", "channel"]
        for (command, base) in Self.commands.sorted(by: { $0.key < $1.key }) {
            for (option, placeholder) in try await Self.options(of: command) where numeric.contains(placeholder) {
                let digits = String(1 + random.below(9))
                let spellings = [
                    "+" + digits, "0x" + digits, digits + "e1", " " + digits, digits + " ", "-0", "٣", "0b1",
                    digits + "_0",
                ]
                for value in HostileRun.pick(3, of: spellings, &random) {
                    let outcome = try await HostileRun.expect(
                        [command] + base + [option, value], environment: ["ZTPROV_WIFI_PASSWORD": "abcdefgh12"],
                        status: 2, code: "usage.invalid-option")
                    Self.expectReadable(outcome, "\(command) \(option) \(value)")
                }
            }
        }
        for chosen in ["blufi", "protocomm"] {
            try await HostileRun.expect(
                ["ble", "--ssid", "Net", "--open-network", "--protocol", chosen, "--authorization-timeout", "30"],
                status: 2, code: "usage.invalid-option")
        }
    }

    /// Lanes, addresses and interface names are checked for syntax before any bus: duplicates, signs
    /// and empty names included.
    @Test func lanesAddressesAndInterfacesAreCheckedBeforeTheBus() async throws {
        var random = SplitMix64(seed: 0x0018_1A4E)
        let batch = ["batch", "--ssid", "Net", "--open-network", "--devices", "/nonexistent/units.csv"]
        var cases: [[String]] = [["discover", "--lan-interface", ""], batch + ["--adapters", "garbage"]]
        for _ in 0..<6 {
            let number = random.below(8)
            let address = (0..<6).map { _ in String(format: "%02X", random.below(256)) }.joined(separator: ":")
            let signed = address.split(separator: ":").enumerated().map { index, octet in
                index == random.below(6) ? "+" + String(octet.suffix(1)) : String(octet)
            }.joined(separator: ":")
            let ip = "192.168.\(random.below(256)).\(1 + random.below(254))"
            cases += HostileRun.pick(
                5,
                of: [
                    batch + ["--adapters", "hci\(number),hci\(number)"],
                    batch + ["--adapters", "hci\(number), hci\(number + 1),hci\(number)"],
                    batch + ["--adapters", "\(address),\(address.lowercased())"],
                    batch + ["--adapters", "slot:\(number),slot:\(number)"],
                    batch + ["--adapters", "hci\(number),\(["hci-1", "hci+1", "slot:-1", "x"][random.below(4)])"],
                    [
                        "scan", "--adapter",
                        ["hci-\(number)", "hci+\(number)", "slot:+\(number)", "slot:-\(number)"][random.below(4)],
                    ],
                    ["ble", "--ssid", "Net", "--open-network", "--bssid", signed],
                    ["ble", "--ssid", "Net", "--open-network", "--device", signed],
                    ["handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1", "--device-address", "\(ip):0"],
                    ["handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1", "--device-address", "\(ip):+80"],
                    ["discover", "--device-address", ip.replacing(".1", with: ".+1")],
                    [
                        "discover", "--lan-interface",
                        ["", " ", "a/b", String(repeating: "w", count: 16), "..", "wl an0"][random.below(6)],
                    ],
                    [
                        "softap", "--ssid", "Net", "--ap-ssid", "PROV_1", "--open-network", "--wifi-interface",
                        ["", "a/b", " "][random.below(3)],
                    ],
                    batch + ["--path", "softap", "--wifi-interfaces", "wlan\(number),wlan\(number)"],
                ], &random)
        }
        for arguments in cases {
            let outcome = try await HostileRun.expect(
                arguments, environment: ["T": "token"], status: 2, code: "usage.invalid-option")
            Self.expectReadable(outcome, "\(arguments)")
        }
    }

    /// Station-profile strings that start with `-` are values, not options.
    @Test func stationProfileValuesMayStartWithADash() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let units = try HostileRun.file("units.csv", Array("ZT_UNIT1\n".utf8), in: directory)
        var random = SplitMix64(seed: 0x0012_DA54)
        for round in 0..<6 {
            let station = ["-", "--", "-h", "-vq", "--help", "-line-1", "--json", "-x=y"][random.below(8)] + "\(round)"
            let ssid = ["-Net", "--ssid", "-", "-q"][random.below(4)]
            let json = "{\"station\": \"\(station)\", \"ssid\": \"\(ssid)\", \"open-network\": true}"
            let profile = try HostileRun.file("profile\(round).json", Array(json.utf8), in: directory)
            // Past the options and the units, the run needs the (missing) bus: exit 3.
            try await HostileRun.expect(
                [
                    "batch", "--config", profile, "--path", "softap", "--devices", units, "--db",
                    directory.appending(path: "r.sqlite").path,
                ], status: 3)
        }
    }
}
