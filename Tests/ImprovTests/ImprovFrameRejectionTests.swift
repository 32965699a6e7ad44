import Improv
import TestSupport
import Testing

/// Classes of malformed input, each with generated members, come back as named errors.
@Suite struct ImprovFrameRejectionTests {
    @Test func everyCorruptedChecksumIsRejected() throws {
        let frame = [UInt8](hex: "05 0a 09 6d792d646576696365 9b")
        for wrong in UInt8(0)...UInt8(255) where wrong != 0x9b {
            #expect(throws: ImprovError.badChecksum(expected: 0x9b, received: wrong)) {
                try ImprovRPCFrame.decode(frame.dropLast() + [wrong])
            }
        }
    }

    @Test func everyTruncationAndExtensionIsRejected() {
        let frame = [UInt8](hex: "05 0a 09 6d792d646576696365 9b")
        for length in 0..<frame.count {
            #expect(throws: ImprovError.self) { try ImprovRPCFrame.decode(Array(frame.prefix(length))) }
        }
        for extra in 1...4 {
            #expect(throws: ImprovError.frameLengthMismatch(declared: 10, received: frame.count + extra)) {
                try ImprovRPCFrame.decode(frame + Array(repeating: 0, count: extra))
            }
        }
    }

    @Test func stringListsWhoseLengthsOverrunAreRejected() throws {
        var random = SplitMix64(seed: 17)
        var rejected = 0
        for _ in 0..<2000 {
            let data = random.bytes(random.below(30))
            if let strings = try? ImprovStringList.decode(data) {
                #expect(strings.reduce(0) { $0 + $1.count + 1 } == data.count)
                #expect(try ImprovStringList.encode(strings) == data)
            } else {
                rejected += 1
            }
        }
        #expect(rejected > 500)
    }

    @Test func resultsWithTheWrongShapeAreRejected() throws {
        let twoStrings = try ImprovRPCFrame(command: 5, data: ImprovStringList.encode([[0x61], [0x62]]))
        #expect(throws: ImprovError.unexpectedStringCount(.hostname, 2)) {
            try ImprovResult.parse(twoStrings, as: .hostname)
        }
        for count in [0, 1, 2, 3, 5, 7] {
            let frame = try ImprovRPCFrame(
                command: 3, data: ImprovStringList.encode(Array(repeating: Array("x".utf8), count: count)))
            #expect(throws: ImprovError.unexpectedStringCount(.deviceInfo, count)) {
                try ImprovResult.parse(frame, as: .deviceInfo)
            }
        }
        for rssi in ["", "abc", "-60dBm", "99999", "-129", "1e3"] {
            let frame = try ImprovRPCFrame(
                command: 4, data: ImprovStringList.encode([Array("net".utf8), Array(rssi.utf8), Array("WPA2".utf8)]))
            #expect(throws: ImprovError.malformedScanEntry) { try ImprovResult.parse(frame, as: .scanWiFiNetworks) }
        }
        let notUTF8 = try ImprovRPCFrame(command: 1, data: ImprovStringList.encode([[0xC3, 0x28]]))
        #expect(throws: ImprovError.invalidUTF8) { try ImprovResult.parse(notUTF8, as: .sendWiFiSettings) }
    }

    @Test func invalidArgumentsAreRefusedBeforeAnythingIsSent() throws {
        #expect(throws: ImprovError.invalidSSID(length: 0)) { try ImprovCredentials(ssid: [], password: []) }
        #expect(throws: ImprovError.invalidSSID(length: 33)) {
            try ImprovCredentials(ssid: Array(repeating: 0x61, count: 33), password: [])
        }
        for length in [1, 7, 64, 65, 200] {
            #expect(throws: ImprovError.invalidPassword(length: length)) {
                try ImprovCredentials(ssid: [0x61], password: Array(repeating: 0x7A, count: length))
            }
        }
        #expect(throws: Never.self) { try ImprovCredentials(ssid: [0x61], password: Array(repeating: 0x41, count: 64)) }
        for name in [
            "", "-lead", "trail-", "under_score", "sp ace", "a..b", String(repeating: "a", count: 64), "ümlaut",
        ] {
            #expect(throws: ImprovError.invalidHostname) { try ImprovRequest.validatedHostname(name) }
        }
        #expect(try ImprovRequest.validatedHostname("kitchen-plug-2") == Array("kitchen-plug-2".utf8))
        #expect(throws: ImprovError.invalidDeviceName) { try ImprovRequest.validatedDeviceName("") }
        #expect(throws: ImprovError.dataTooLong(256)) {
            try ImprovRPCFrame(command: 1, data: Array(repeating: 0, count: 256))
        }
    }

    @Test func descriptionsNeverShowThePassword() throws {
        let credentials = try ImprovCredentials(ssid: Array("HomeNet".utf8), password: Array("s3cret-pass".utf8))
        let request = ImprovRequest.sendWiFiSettings(credentials)
        let frame = try request.frame().encoded
        let texts = [
            "\(credentials)", "\(request)", "\(ImprovClient.Action.write(frame))",
            "\(ImprovClient(requests: [request]))",
        ]
        for text in texts { #expect(!text.contains("s3cret")) }
    }
}
