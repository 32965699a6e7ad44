import ArgumentParser
import Foundation
import Records
import TestSupport
import Testing

@testable import ztprov

/// `--min-security` on the commands that send credentials, and in a station profile.
@Suite struct SecurityFloorOptionTests {
    static let commands: [(name: String, parse: @Sendable ([String]) throws -> SecurityLevel)] = [
        ("ble", { try BLECommand.parse(["--ssid", "Home"] + $0).securityFloor.minimum }),
        (
            "softap",
            { try SoftAPCommand.parse(["--ap-ssid", "ZT_1A2B3C", "--ssid", "Home"] + $0).securityFloor.minimum }
        ),
        ("batch", { try BatchCommand.parse(["--ssid", "Home"] + $0).securityFloor.minimum }),
    ]

    @Test func eachCommandTakesEveryLevelAndDefaultsToNone() throws {
        for command in Self.commands {
            #expect(try command.parse([]) == .none, "\(command.name)")
            for level in SecurityLevel.allCases {
                #expect(try command.parse(["--min-security", level.rawValue]) == level, "\(command.name)")
            }
            for wrong in ["", "strong", "Encrypted", "1"] {
                #expect(throws: (any Error).self, "\(command.name) \(wrong)") {
                    try command.parse(["--min-security", wrong])
                }
            }
        }
    }

    @Test func aStationProfileSetsTheFloorAndTheCommandLineWins() throws {
        let directory = try TemporaryDirectory("profile")
        defer { directory.remove() }
        let profile = directory.path + "/station.json"
        try #"{"min-security": "authenticated", "ssid": "Factory"}"#.write(
            toFile: profile, atomically: true, encoding: .utf8)
        let options = try StationProfile.options(in: profile)
        let fromProfile = try #require(try ZTProv.parseAsRoot(["batch"] + options) as? BatchCommand)
        #expect(fromProfile.securityFloor.minimum == .authenticated)
        let overridden = try #require(
            try ZTProv.parseAsRoot(["batch"] + options + ["--min-security", "encrypted"]) as? BatchCommand)
        #expect(overridden.securityFloor.minimum == .encrypted)
    }
}
