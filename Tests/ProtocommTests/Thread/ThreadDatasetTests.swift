import Protocomm
import TestSupport
import Testing

/// The dataset file is hostile input and a secret: exact hex, bounded size, whole TLVs, and no error
/// or description that repeats its content. Each class of bad input is tried with generated values.
@Suite struct ThreadDatasetTests {
    /// A complete active dataset, TLV by TLV: timestamp, channel 15, channel mask, ext PAN ID, mesh-local
    /// prefix, network key, network name, PAN ID, PSKc, security policy.
    static let tlvs: [[UInt8]] = [
        [0x0E, 0x08, 0, 0, 0, 0, 0, 1, 0, 0], [0x00, 0x03, 0x00, 0x00, 0x0F],
        [0x35, 0x06, 0x00, 0x04, 0x00, 0x1F, 0xFF, 0xE0], [0x02, 0x08] + [UInt8](hex: "dead00beef00cafe"),
        [0x07, 0x08] + [UInt8](hex: "fddead00beef0000"),
        [0x05, 0x10] + [UInt8](hex: "3c0a9d9c0bf5efa1cf0e8a4bbfc0e8d5"),
        [0x03, 0x0D] + Array("OpenThread-zt".utf8), [0x01, 0x02, 0x12, 0x34],
        [0x04, 0x10] + [UInt8](hex: "05d7dd1ba2bd3a1bd7d9e89d94f47f31"), [0x0C, 0x04, 0x02, 0xA0, 0xF7, 0xF8],
    ]
    static let bytes = tlvs.flatMap { $0 }
    static let hex = bytes.hexString
    static let networkKeyHex = "3c0a9d9c0bf5efa1cf0e8a4bbfc0e8d5"

    static func text(_ string: String) -> [UInt8] { Array(string.utf8) }

    @Test func theHexLineOfOtCtlParsesToItsTLVs() throws {
        let dataset = try ThreadDataset(hexText: Self.text(Self.hex))
        #expect(dataset.tlvs == Self.bytes)
        #expect(
            dataset.network
                == ThreadNetworkIdentity(
                    name: "OpenThread-zt", panID: 0x1234, extendedPANID: [UInt8](hex: "dead00beef00cafe"),
                    channel: 15))
    }

    @Test(arguments: ["\n", "\r\n", " \t\r\n\r\n", ""])
    func blanksAroundTheLineAndEitherCaseAreAccepted(_ ending: String) throws {
        for text in [Self.hex + ending, "  " + Self.hex.uppercased() + ending, "\r\n" + Self.hex + ending] {
            #expect(try ThreadDataset(hexText: Self.text(text)).tlvs == Self.bytes)
        }
    }

    @Test func theDescriptionNeverShowsTheDataset() throws {
        let dataset = try ThreadDataset(hexText: Self.text(Self.hex))
        for shown in ["\(dataset)", String(reflecting: dataset), "\(dataset.network)"] {
            #expect(!shown.lowercased().contains(Self.networkKeyHex))
            #expect(!shown.contains("3c0a"))
        }
        #expect("\(dataset)" == "ThreadDataset(\(Self.bytes.count) bytes, redacted)")
    }

    @Test func blankTextIsEmpty() {
        for text in ["", " ", "\r\n", "\n\n\t "] {
            #expect(throws: ThreadDatasetError.empty) { try ThreadDataset(hexText: Self.text(text)) }
        }
        #expect(throws: ThreadDatasetError.empty) { try ThreadDataset(tlvs: []) }
    }

    @Test func anOddNumberOfDigitsIsRefused() {
        var generator = SplitMix64(seed: 0x0DD)
        for _ in 0..<200 {
            let length = Int.random(in: 1...250, using: &generator) * 2 + 1
            let digits = String((0..<length).map { _ in "0123456789abcdefABCDEF".randomElement(using: &generator)! })
            #expect(throws: ThreadDatasetError.oddDigitCount) { try ThreadDataset(hexText: Self.text(digits)) }
        }
    }

    /// Any byte that is not a hex digit inside the line, NUL and line ends included, is named by position.
    @Test func aForeignCharacterInsideTheLineIsRefusedAtItsPosition() {
        var generator = SplitMix64(seed: 0x4E58)
        let hexDigits = Set(Self.text("0123456789abcdefABCDEF"))
        let foreign = (0...255).map(UInt8.init).filter { !hexDigits.contains($0) }
        for byte in foreign {
            var text = Self.text(Self.hex)
            let position = Int.random(in: 1..<(text.count - 1), using: &generator)
            text[position] = byte
            #expect(throws: ThreadDatasetError.notHex(position: position), "byte \(byte)") {
                try ThreadDataset(hexText: text)
            }
        }
        #expect(throws: ThreadDatasetError.notHex(position: 2)) {
            try ThreadDataset(hexText: Self.text("0e") + [0] + Self.text("0"))
        }
        #expect(throws: ThreadDatasetError.notHex(position: 1)) { try ThreadDataset(hexText: Self.text("0x0e08")) }
    }

    @Test func errorsNeverQuoteTheContent() {
        var text = Self.text(Self.hex)
        text[40] = UInt8(ascii: "Z")
        do {
            _ = try ThreadDataset(hexText: text)
            Issue.record("accepted")
        } catch {
            #expect("\(error)" == "character 41 of the hex text is not a hex digit")
            #expect(!"\(error)".contains("Z"))
        }
    }

    @Test func moreThanTheDeviceBufferIsRefused() {
        var generator = SplitMix64(seed: 0x0FE)
        for _ in 0..<50 {
            let count = Int.random(in: 255...2048, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(throws: ThreadDatasetError.tooLong(byteCount: count)) {
                try ThreadDataset(hexText: Self.text(bytes.hexString))
            }
            #expect(throws: ThreadDatasetError.tooLong(byteCount: count)) { try ThreadDataset(tlvs: bytes) }
        }
        #expect(throws: Never.self) { try ThreadDataset(tlvs: [0x7F, 252] + [UInt8](repeating: 0, count: 252)) }
    }

    /// A length that runs past the end, at any TLV, and any cut through the data.
    @Test func aTLVThatRunsPastTheEndIsRefused() {
        var generator = SplitMix64(seed: 0x7175)
        for _ in 0..<200 {
            let count = Int.random(in: 1...Self.tlvs.count, using: &generator)
            let last = Self.tlvs[count - 1]
            let offset = Self.tlvs[..<(count - 1)].reduce(0) { $0 + $1.count }
            var grown = Array(Self.tlvs[..<count].joined())
            grown[offset + 1] &+= UInt8.random(in: 1...200, using: &generator)
            #expect(throws: ThreadDatasetError.truncatedTLV(offset: offset)) { try ThreadDataset(tlvs: grown) }
            let cut = Int.random(in: 1..<last.count, using: &generator)
            let shortened = Array(Self.tlvs[..<count].joined().dropLast(cut))
            #expect(throws: ThreadDatasetError.truncatedTLV(offset: offset)) { try ThreadDataset(tlvs: shortened) }
        }
    }

    @Test func aFixedSizeTLVWithAnotherLengthIsRefused() {
        let sizes: [UInt8: ClosedRange<Int>] = [
            0: 3...3, 1: 2...2, 2: 8...8, 3: 1...16, 4: 16...16, 5: 16...16, 7: 8...8, 12: 3...4, 14: 8...8, 51: 8...8,
            52: 4...4,
        ]
        for (type, allowed) in sizes {
            for length in 0...40 where !allowed.contains(length) {
                let tlv = [type, UInt8(length)] + [UInt8](repeating: 0x41, count: length)
                #expect(throws: ThreadDatasetError.invalidTLVLength(type: type, length: length)) {
                    try ThreadDataset(tlvs: tlv)
                }
            }
            #expect(throws: Never.self) {
                try ThreadDataset(
                    tlvs: [type, UInt8(allowed.lowerBound)] + [UInt8](repeating: 0x41, count: allowed.lowerBound))
            }
        }
    }

    @Test func aRepeatedTypeIsRefused() {
        for tlv in Self.tlvs {
            #expect(throws: ThreadDatasetError.repeatedTLV(type: tlv[0])) { try ThreadDataset(tlvs: Self.bytes + tlv) }
        }
    }

    /// Arbitrary bytes, as text or as TLVs, end in a dataset or a named error, never a trap.
    @Test func arbitraryBytesNeverTrap() {
        var generator = SplitMix64(seed: 0xA11)
        for _ in 0..<2000 {
            let count = Int.random(in: 0...600, using: &generator)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            _ = try? ThreadDataset(hexText: bytes)
            if let dataset = try? ThreadDataset(tlvs: bytes) { _ = dataset.network }
        }
    }
}
