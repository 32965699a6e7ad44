import Foundation
import TestSupport
import Testing

/// A sweep over every value-taking option of every command (read from its `--help`), each given a few
/// generated hostile values: the run ends on its own, by exit (no trap), with a status from the table,
/// and a secret option's file or variable name is never printed back.
@Suite struct OptionSweepEndToEndTests {
    static let commands: [String: [String]] = [
        "scan": [], "ble": ["--ssid", "Net"], "softap": ["--ssid", "Net", "--ap-ssid", "PROV_1"], "discover": [],
        "handoff": ["--device-id", "a1b2c3d4e5f6", "--area-id", "1"], "doctor": [], "demo": [],
        "batch": ["--ssid", "Net", "--devices", "/nonexistent/units.csv"],
        "report": ["--format", "csv", "--db", "/nonexistent/records.sqlite"],
    ]
    static let statuses: Set<Int32> = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 130]

    @Test func everyOptionWithGeneratedValuesEndsWithAStatusFromTheTable() async throws {
        var random = SplitMix64(seed: 0x05EE_9000)
        let hostile = [
            "", " ", "-1", "0", "1e309", "nan", "0x10", "99999999999999999999999", "\u{202E}", "é",
            String(repeating: "a", count: 5000), "%s%n", "../../etc/passwd", "\t", "{}",
        ]
        for (command, base) in Self.commands.sorted(by: { $0.key < $1.key }) {
            let help = try await ZTProvProcess.launch([command, "--help"]).run().standardOutput
            let options = Set(help.matches(of: /(--[a-z0-9-]+) </).map { String($0.output.1) }).sorted()
            #expect(!options.isEmpty, "no options found in \(command) --help")
            for option in options {
                let isSecretSource = option.hasSuffix("-file") || option.hasSuffix("-env")
                let secret = isSecretSource ? [HostileRun.secret(&random)] : []
                for value in HostileRun.pick(1, of: hostile, &random) + secret {
                    var launch = try ZTProvProcess.launch([command] + base + [option, value])
                    launch.environment = HostileRun.noBus.merging(
                        ["ZTPROV_WIFI_PASSWORD": "abcdefgh12", "HOME": "/nonexistent"]) { $1 }
                    launch.deadline = .seconds(20)
                    let outcome = try await launch.run()
                    let shown = "\(command) \(option) \(value.prefix(24).debugDescription) → \(outcome)"
                    #expect(!outcome.hitDeadline, "hung: \(shown)")
                    guard case .exited(let status) = outcome.termination else {
                        Issue.record("not an exit: \(shown)")
                        continue
                    }
                    #expect(Self.statuses.contains(status), "\(shown)")
                    if secret.contains(value) {
                        #expect(!outcome.everything.contains(value), "secret source echoed: \(shown)")
                    }
                }
            }
        }
    }
}
