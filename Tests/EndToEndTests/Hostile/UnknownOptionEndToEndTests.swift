import Foundation
import TestSupport
import Testing

/// A value glued to an unknown or short option (`-pHunter2`, `-hunter2`, `--pasword=Hunter2`), given to
/// an unknown option, or left stray is a usage error (exit 2) on every command, and the value, perhaps a
/// secret typed in the wrong place, is never printed back: not whole, not in part.
@Suite struct UnknownOptionEndToEndTests {
    static let commands: [[String]] = [
        [], ["scan"], ["ble", "--ssid", "Net"], ["softap", "--ssid", "Net", "--ap-ssid", "PROV_1"], ["discover"],
        ["handoff", "--device-id", "a1b2c3d4e5f6"], ["doctor"], ["demo"], ["batch", "--ssid", "Net"],
        ["report", "--format", "csv"],
    ]

    @Test func gluedUnknownAndStrayValuesAreUsageErrorsThatEchoNothing() async throws {
        var random = SplitMix64(seed: 0x0A11_0E70)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        for command in Self.commands {
            let secret = HostileRun.secret(&random)
            let letter = letters[random.below(letters.count)]
            let word = ["pasword", "pop", "token", "password-fil", "key"][random.below(5)]
            let shapes: [[String]] = [
                ["-\(letter)\(secret)"], ["-h\(secret)"], ["-p\(secret)"], ["-v\(secret)"], ["-q\(secret)"],
                ["--\(word)=\(secret)"], ["--\(word)", secret], [secret],
            ]
            for shape in shapes {
                let outcome = try await HostileRun.expect(
                    command + shape, status: 2, code: "usage.invalid-option", secrets: [secret])
                for length in [4, 6] {
                    for start in stride(from: 2, to: secret.count - length, by: length) {
                        let piece = String(secret.dropFirst(start).prefix(length))
                        #expect(!outcome.standardError.contains(piece), "part of \(secret) shown: \(outcome)")
                    }
                }
            }
        }
    }

    @Test func shortFlagsStillClusterAndHelpStillWorks() async throws {
        let outcome = try await HostileRun.expect(["report", "-vq", "-h"], status: 0)
        #expect(outcome.standardOutput.contains("USAGE"), "\(outcome)")
    }
}
