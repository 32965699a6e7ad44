import Foundation
import TestSupport
import Testing

/// Where secrets may come from, what they
/// may be, and that a secret typed in the wrong place is never printed back.
@Suite struct SecretSourceEndToEndTests {
    /// The commands and secret options under test, each with the arguments that get it to read the secret.
    static func commands(secretFile path: String, goodPassword: String) -> [[String]] {
        [
            ["ble", "--ssid", "Net", "--password-file", path],
            ["softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--password-file", path],
            [
                "softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--password-file", goodPassword, "--security", "1",
                "--pop-file", path,
            ],
            [
                "softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--password-file", goodPassword, "--security", "2",
                "--pop-file", path,
            ],
            ["handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1", "--access-token-file", path],
        ]
    }

    @Test func secretSourcesThatNeverEndOrAreNotFilesAreRefusedAtOnce() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try HostileRun.file("good", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0x5EC1)
        for round in 0..<1 {
            let oversized = (0..<(4097 + random.below(60_000))).map { _ in UInt8(0x41 + random.below(26)) }
            let hostile: [String] = [
                try HostileRun.fifo(in: directory, "fifo\(round)"), "/dev/zero", "/dev/urandom", "/dev/null",
                directory.path, try HostileRun.file("big\(round)", oversized, in: directory),
                directory.appending(path: HostileRun.secret(&random)).path,
            ]
            for path in hostile {
                for arguments in HostileRun.pick(2, of: Self.commands(secretFile: path, goodPassword: good), &random) {
                    try await HostileRun.expect(
                        arguments, status: 2, code: "usage.secret-unreadable",
                        secrets: [URL(filePath: path).lastPathComponent].filter { $0.hasPrefix("Zq") })
                }
            }
        }
    }

    @Test func emptySecretsAreRefusedFromEverySource() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try HostileRun.file("good", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0xE417)
        let blanks: [[UInt8]] = [[], [0x0A], [0x0D, 0x0A], Array(("\n" + HostileRun.secret(&random)).utf8)]
        for (index, blank) in blanks.enumerated() {
            let path = try HostileRun.file("blank\(index)", blank, in: directory)
            for arguments in HostileRun.pick(2, of: Self.commands(secretFile: path, goodPassword: good), &random) {
                try await HostileRun.expect(arguments, status: 2, code: "usage.secret-empty")
            }
        }
        for variable in ["ZTPROV_WIFI_PASSWORD", "ZTPROV_ACCESS_TOKEN"] {
            let arguments =
                variable == "ZTPROV_WIFI_PASSWORD"
                ? ["ble", "--ssid", "Net"] : ["handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1"]
            try await HostileRun.expect(arguments, environment: [variable: ""], status: 2, code: "usage.secret-empty")
        }
    }

    @Test func anOpenNetworkIsAnExplicitChoice() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try HostileRun.file("good", Array("correct horse\n".utf8), in: directory)
        // Without a password and without the flag: refused before any bus is touched.
        try await HostileRun.expect(["ble", "--ssid", "Net"], status: 2, code: "usage.secret-missing")
        // The flag and a password contradict each other.
        for arguments in [
            ["ble", "--ssid", "Net", "--open-network", "--password-file", good],
            ["softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--open-network", "--password-env", "X"],
            [
                "batch", "--path", "softap", "--ssid", "Net", "--open-network", "--password-file", good, "--devices",
                good,
            ],
        ] {
            try await HostileRun.expect(arguments, status: 2, code: "usage.invalid-option")
        }
        // With the flag alone the secrets are settled and the run goes on to the (missing) bus.
        try await HostileRun.expect(
            ["ble", "--ssid", "Net", "--open-network"], status: 3, code: "host.bluetoothd-absent")
    }

    @Test func secretsThatAreNotTextAreRefused() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try HostileRun.file("good", Array("correct horse\n".utf8), in: directory)
        var random = SplitMix64(seed: 0x7E47)
        for round in 0..<8 {
            var bytes = Array(HostileRun.secret(&random).utf8)
            let spoiler: [UInt8] = [[0x00], [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80]][round % 5]
            bytes.insert(contentsOf: spoiler, at: random.below(bytes.count))
            let path = try HostileRun.file("binary\(round)", bytes + [0x0A], in: directory)
            for arguments in HostileRun.pick(1, of: Self.commands(secretFile: path, goodPassword: good), &random) {
                try await HostileRun.expect(arguments, status: 2, code: "usage.secret-invalid")
            }
        }
    }

    @Test func secretsTypedInTheWrongPlaceAreNeverPrinted() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0xEC40)
        for _ in 0..<2 {
            let secret = HostileRun.secret(&random)
            let placements: [[String]] = [
                ["ble", "--ssid", "Net", "--password-file=\(secret)"],
                ["ble", "--ssid", "Net", "--password-file", secret],
                ["ble", "--ssid", "Net", secret],
                ["ble", "--ssid", "Net", "--password=\(secret)"],
                ["ble", "--ssid", "Net", "--password", secret],
                ["ble", "--ssid", "Net", "--password-env", secret],
                ["batch", "--retries", secret],
                [
                    "handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1", "--sc-url",
                    "https://u:\(secret)@sc.test",
                ],
                ["handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1", "--sc-url", "http://sc.test:\(secret)"],
                ["report", "--format", "csv", "--db", "postgress://line:\(secret)@db.test/ztprov"],
                ["softap", "--ap-ssid", "ZT_1", "--ssid", "Net", "--pop", secret],
            ]
            for arguments in placements {
                let outcome = try await HostileRun.expect(arguments, status: 2, secrets: [secret])
                #expect(
                    outcome.standardError.contains("error[usage.") || outcome.standardError.contains("error[records."))
            }
        }
    }

    @Test func aSessionCookieForCleartextHTTPIsWarnedAbout() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0xC00C)
        let cookie = HostileRun.secret(&random)
        let session = try HostileRun.file("session", Array((cookie + "\n").utf8), in: directory)
        let outcome = try await HostileRun.expect(
            [
                "handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1", "--sc-url", "http://127.0.0.1:1",
                "--sc-session-file", session,
            ],
            status: 5, code: "sc.unreachable", secrets: [cookie])
        #expect(outcome.standardError.contains("warning: --sc-url is http://"), "\(outcome)")
    }
}
