import Foundation
import Provisioning
import TestSupport
import Testing

@testable import ztprov

@Suite struct HostileOptionTests {
    @Test func stationProfileNumbersKeepTheirDigits() throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "ztprov-profile-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        let cases: [(String, String)] = [
            ("9007199254740993", "9007199254740993"), ("18446744073709551615", "18446744073709551615"),
            ("-9223372036854775808", "-9223372036854775808"), ("1e20", "100000000000000000000"), ("2.5", "2.5"),
            ("15", "15"),
        ]
        for (json, expected) in cases {
            try Data("{\"area-id\": \(json)}".utf8).write(to: url)
            #expect(try StationProfile.options(in: url.path) == ["--area-id=\(expected)"], "\(json)")
        }
    }

    @Test func usageMessagesNeverQuoteAValue() async {
        // Each call renders the command's help to learn its options (slow in a debug build): 30 draws, each
        // letting the test process's timed tests run in between.
        var random = SplitMix64(seed: 0x0EC0)
        for _ in 0..<30 {
            await Task.yield()
            let secret = "Zq" + String((0..<12).map { _ in Character(UnicodeScalar(0x21 + random.below(94))!) })
            let arguments = ["ztprov", "ble", "--ssid", "Net", secret]
            for message in [
                "Unexpected argument '\(secret)'", "The value '\(secret)' is invalid for '--retries <count>'",
                "Unknown option '\(secret)'", "Unknown option '--password=\(secret)'",
            ] {
                let shown = UsageFailure.withoutValues(message, arguments: arguments)
                #expect(!shown.contains(secret), "\(message) → \(shown)")
            }
        }
        #expect(
            UsageFailure.withoutValues("Missing value for '--password-file <file>'", arguments: [])
                == "Missing value for '--password-file <file>'")
        #expect(
            UsageFailure.withoutValues("Unexpected argument 'x'", arguments: ["ztprov", "ble", "x"])
                == "Unexpected argument (argument 2, not shown)")
    }

    /// The user's own words stay as typed: a mistyped option name, a plain value of a known option, and
    /// ArgumentParser's list of choices.
    @Test func usageMessagesKeepTheUsersOwnWords() {
        var random = SplitMix64(seed: 0x0013_0B0D)
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for _ in 0..<30 {
            let word = String((0..<(3 + random.below(8))).map { _ in letters[random.below(letters.count)] })
            #expect(
                UsageFailure.withoutValues(
                    "Unknown option '--\(word)'", arguments: ["ztprov", "ble", "--\(word)", "3"])
                    == "Unknown option '--\(word)'")
            let message =
                "The value '\(word)' is invalid for '--format <format>'. Please provide one of 'csv', 'json' or 'html'."
            #expect(UsageFailure.withoutValues(message, arguments: ["ztprov", "report", "--format", word]) == message)
        }
    }

    @Test func hostsAndPortsAreExact() {
        #expect(HostText.isHostName("gz.sc.zhitingtech.com"))
        #expect(HostText.isHostName("192.168.1.10"))
        for bad in ["", "a b", "http://x", "x:1", "-x", "x-", "a..b", ".", String(repeating: "a", count: 64), "é"] {
            #expect(!HostText.isHostName(bad), "\(bad)")
        }
        #expect(HostText.isHostAndPort("mqtt.test:1883"))
        for bad in ["mqtt.test", "mqtt.test:0", "mqtt.test:65536", "mqtt.test:+1", ":1883", "mqtt.test:1e3"] {
            #expect(!HostText.isHostAndPort(bad), "\(bad)")
        }
        #expect(HandoffOptions.isAreaID("18446744073709551615"))
        for bad in ["", "18446744073709551616", "-1", "1e3", "０", "x"] {
            #expect(!HandoffOptions.isAreaID(bad), "\(bad)")
        }
    }
}
