import Foundation
import TestSupport
import Testing

/// `--thread-dataset-file` with generated bad files: each class ends in its named error and exit status
/// before the bus is touched, and no run prints the file's content (a dataset holds the network key).
@Suite struct ThreadDatasetFileEndToEndTests {
    /// A dataset whose network key and PSKc are random, so a leak of either shows.
    static func dataset(_ random: inout SplitMix64) -> (hex: String, secrets: [String]) {
        let key = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }.hexString
        let pskc = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }.hexString
        let hex =
            "0e080000000000010000" + "000300000f" + "0208dead00beef00cafe" + "0510" + key
            + "030d4f70656e5468726561642d7a74" + "01021234" + "0410" + pskc
        return (hex, [key, pskc])
    }

    static func run(_ path: String, secrets: [String], status: Int32, code: String, mentions: String) async throws {
        let outcome = try await HostileRun.expect(
            ["ble", "--thread-dataset-file", path, "--protocol", "protocomm"], status: status, code: code,
            secrets: secrets)
        #expect(outcome.standardError.contains(mentions), "\(outcome.standardError)")
    }

    @Test func everyClassOfBadDatasetFileIsNamedAndNothingLeaks() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0x7EAD)
        for round in 0..<2 {
            let (hex, secrets) = Self.dataset(&random)
            let text = Array(hex.utf8)
            let odd = Array(text.dropLast(1 + 2 * random.below(4)))
            var foreign = text
            let position = 1 + random.below(text.count - 2)
            foreign[position] = [0, UInt8(ascii: "g"), UInt8(ascii: " "), 0x0D, 0x0A, 0xFF][random.below(6)]
            var grown = text
            grown[23] = UInt8(ascii: "9")  // the channel TLV says 9 value bytes instead of 3
            let truncated = Array(text.dropLast(2 * (1 + random.below(6))))
            let oversize = Array(String(repeating: "7f", count: 255 + random.below(100)).utf8)
            let cases: [(String, [UInt8], String)] = [
                ("odd", odd, "odd number of hex digits"),
                ("foreign", foreign, "character \(position + 1) of the hex text is not a hex digit"),
                ("grown", grown, "TLV type 0 has 9 value bytes"),
                ("truncated", truncated, "runs past the end"),
                ("oversize", oversize, "at most 254"),
                ("empty", Array("\r\n  \n".utf8), "no hex digits"),
                ("huge", [UInt8](repeating: UInt8(ascii: "a"), count: 5000), "larger than 4096 bytes"),
            ]
            for (name, bytes, mentions) in cases {
                let path = try HostileRun.file("\(name)-\(round).hex", bytes, in: directory)
                try await Self.run(
                    path, secrets: secrets, status: 2, code: "thread.invalid-dataset", mentions: mentions)
            }
        }
    }

    @Test func aFileThatIsNotARegularFileIsUnreadable() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for path in [try HostileRun.fifo(in: directory), directory.path, "/nonexistent/dataset.hex"] {
            try await Self.run(
                path, secrets: [], status: 2, code: "usage.secret-unreadable", mentions: "--thread-dataset-file")
        }
    }

    /// A good file gets past the dataset checks: with no bus, the run stops at the host precondition.
    @Test func aGoodFileWithCRLFReachesTheBus() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SplitMix64(seed: 0xC41F)
        let (hex, secrets) = Self.dataset(&random)
        let path = try HostileRun.file("good.hex", Array(("\r\n" + hex.uppercased() + "\r\n").utf8), in: directory)
        try await HostileRun.expect(
            ["ble", "--thread-dataset-file", path], status: 3, code: "host.bluetoothd-absent",
            secrets: secrets + [hex, hex.uppercased()])
    }

    /// Wi-Fi and hand-off options do not mix with a Thread dataset; the usage error says which one.
    @Test func wiFiOptionsAreRefusedWithADataset() async throws {
        for (extra, mentions) in [
            (["--ssid", "HomeNet"], "--ssid is a Wi-Fi option"),
            (["--password-env", "X"], "--password-file/--password-env is a Wi-Fi option"),
            (["--open-network"], "--open-network is a Wi-Fi option"),
            (["--area-id", "42"], "--area-id hands a device over"),
            (["--protocol", "blufi"], "--thread-dataset-file is an ESP protocomm option"),
            (["--retry-password-env", "X"], "is a Wi-Fi option"),
        ] {
            let outcome = try await HostileRun.expect(
                ["ble", "--thread-dataset-file", "/nonexistent/dataset.hex"] + extra, status: 2)
            #expect(outcome.standardError.contains(mentions), "\(extra): \(outcome.standardError)")
        }
    }
}
