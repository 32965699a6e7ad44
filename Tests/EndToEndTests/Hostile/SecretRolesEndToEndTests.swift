import Foundation
import TestSupport
import Testing

/// Every secret is checked where it is read, whatever its role; what can be decided once is decided
/// before the first unit (and before any bus); and no message quotes a secret column's value, however
/// it got where it is.
@Suite struct SecretRolesEndToEndTests {
    /// Passwords WPA refuses: too short, too long, or 64 characters that are not all hex digits.
    static func badPassword(_ random: inout SplitMix64) -> String {
        let alphabet = Array("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        let length = [1 + random.below(7), 65 + random.below(60), 64][random.below(3)]
        let text = String((0..<length).map { _ in alphabet[random.below(alphabet.count)] })
        // A marker that ordinary text does not hold, so a printed password is found.
        return length < 3 ? text : "Zq" + text.dropFirst(2)
    }

    @Test func theSecondWiFiPasswordFollowsTheFirstPasswordsRule() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try HostileRun.file("good", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0x0008_5EC2)
        for round in 0..<8 {
            let second = Self.badPassword(&random)
            let file = try HostileRun.file("second\(round)", Array((second + "\n").utf8), in: directory)
            let source = random.chance(50) ? ["--retry-password-file", file] : ["--retry-password-env", "SECOND"]
            let protocol_ = random.chance(50) ? ["--protocol", "protocomm"] : []
            try await HostileRun.expect(
                ["ble", "--ssid", "Net", "--password-file", good] + protocol_ + source,
                environment: ["SECOND": second], status: 2, code: "usage.invalid-option",
                secrets: [second].filter { $0.count >= 3 })
        }
    }

    @Test func aPasswordTheUnitsCannotTakeIsRefusedBeforeTheFirstUnit() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let units = try HostileRun.file("units.csv", Array("ZT_UNIT1\nZT_UNIT2\n".utf8), in: directory)
        var random = SplitMix64(seed: 0x0010_64EC)
        let hex = Array("0123456789abcdefABCDEF")
        for round in 0..<6 {
            let key = String((0..<64).map { _ in hex[random.below(hex.count)] })
            let file = try HostileRun.file("key\(round)", Array((key + "\n").utf8), in: directory)
            try await HostileRun.expect(
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--password-file", file, "--devices", units, "--db",
                    directory.appending(path: "r.sqlite").path,
                ], status: 2, code: "softap.invalid-passphrase", secrets: [key])
            let hotspot = [
                String(repeating: "h", count: 1 + random.below(7)),
                String(repeating: "H", count: 65 + random.below(30)),
            ][random.below(2)]
            let hotspotFile = try HostileRun.file("hotspot\(round)", Array((hotspot + "\n").utf8), in: directory)
            try await HostileRun.expect(
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--open-network", "--ap-password-file", hotspotFile,
                    "--devices", units, "--db", directory.appending(path: "r.sqlite").path,
                ], status: 2, code: "softap.invalid-hotspot-password")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "r.sqlite").path))
    }

    /// Units files whose PoP sits in the wrong column (swapped columns, a header naming it as a column,
    /// a QR payload's other fields): from a file or a scanner, no message shows it, in any case.
    @Test func aPoPInTheWrongColumnIsNeverShown() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = try HostileRun.file("pw", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0x0009_9090)
        for round in 0..<10 {
            let pop = "pop" + HostileRun.secret(&random).filter { $0.isLetter || $0.isNumber }
            let lines: [String] =
                switch round % 5 {
                case 0: ["address,pop", "\(pop),24:0A:C4:00:00:01"]
                case 1: ["pop,address", "24:0A:C4:00:00:01,\(pop)"]
                case 2: ["address,\(pop)"]
                case 3: ["name,address", "MH-1,\(pop)"]
                default: [#"{"name":"PROV_1","pop":"x","transport":"\#(pop)"}"#]
                }
            let text = lines.joined(separator: "\n") + "\n"
            let units = try HostileRun.file("units\(round).csv", Array(text.utf8), in: directory)
            for fromStandardInput in [false, true] {
                let arguments = [
                    "batch", "--ssid", "Net", "--password-file", password, "--devices", fromStandardInput ? "-" : units,
                    "--db", directory.appending(path: "r.sqlite").path,
                ]
                var launch = try ZTProvProcess.launch(arguments)
                launch.environment = HostileRun.noBus
                launch.standardInput = fromStandardInput ? Data(text.utf8) : nil
                launch.deadline = .seconds(20)
                let outcome = try await launch.run()
                #expect(!outcome.hitDeadline, "\(text)")
                let everything = (outcome.standardOutput + outcome.standardError).lowercased()
                #expect(!everything.contains(pop.lowercased()), "\(text.debugDescription) → \(outcome)")
            }
        }
    }
}
