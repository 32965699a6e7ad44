import Provisioning
import TestSupport
import Testing

@testable import ztprov

/// The device picker as a pure state machine: keys move and choose, updates keep the selection on its
/// device, and frames show device names as inert text within the terminal's width.
@Suite struct DevicePickerTests {
    static let first = BLECandidate(
        address: "24:0A:C4:00:00:01", name: "MH-D4E5F6", rssi: -70, advertisedProtocol: .bluFi)
    static let second = BLECandidate(
        address: "24:0A:C4:00:00:02", name: "MH-D4E5F7", rssi: -55, advertisedProtocol: .improv, state: "authorized")
    static let third = BLECandidate(
        address: "24:0A:C4:00:00:03", name: "MH-D4E5F8", rssi: -40, advertisedProtocol: .bluFi)

    @Test func rowsAreStrongestFirstWithTheStrongestSelected() {
        let picker = DevicePicker([Self.first, Self.second, Self.third])
        #expect(picker.candidates == [Self.third, Self.second, Self.first])
        #expect(picker.selected == Self.third.address)
        #expect(
            picker.frame(width: 120) == [
                "3 devices match. Choose with ↑/↓ and Enter, or type its number; Ctrl-C quits.",
                "> 1  MH-D4E5F8  24:0A:C4:00:00:03  -40 dBm   blufi",
                "  2  MH-D4E5F7  24:0A:C4:00:00:02  -55 dBm   improv  authorized",
                "  3  MH-D4E5F6  24:0A:C4:00:00:01  -70 dBm   blufi",
            ])
    }

    @Test func arrowsMoveWithinTheListAndEnterChoosesTheSelection() {
        var picker = DevicePicker([Self.first, Self.second, Self.third])
        #expect(picker.press(.up) == nil)
        #expect(picker.selected == Self.third.address)
        #expect(picker.press(.down) == nil)
        #expect(picker.press(.down) == nil)
        #expect(picker.press(.down) == nil)
        #expect(picker.selected == Self.first.address)
        #expect(picker.press(.up) == nil)
        #expect(picker.press(.enter) == Self.second)
    }

    @Test func aNumberChoosesItsRowAndOneOutOfRangeNothing() {
        var picker = DevicePicker([Self.first, Self.second, Self.third])
        #expect(picker.press(.digit(4)) == nil)
        #expect(picker.press(.digit(2)) == Self.second)
    }

    @Test func theSelectionFollowsItsDeviceWhenTheOrderChanges() {
        var picker = DevicePicker([Self.first, Self.second])
        _ = picker.press(.down)
        #expect(picker.selected == Self.first.address)
        let louder = BLECandidate(
            address: Self.first.address, name: Self.first.name, rssi: -30, advertisedProtocol: .bluFi)
        picker.update([louder, Self.second, Self.third])
        #expect(picker.candidates.map(\.address) == [Self.first.address, Self.third.address, Self.second.address])
        #expect(picker.press(.enter) == louder)
    }

    @Test func keysSplitAcrossReadsAreDecodedWhole() {
        var decoder = PickerKey.Decoder()
        #expect(decoder.feed([0x1B]) == [])
        #expect(decoder.feed([UInt8(ascii: "[")]) == [])
        #expect(decoder.feed([UInt8(ascii: "B"), UInt8(ascii: "2")]) == [.down, .digit(2)])
        #expect(decoder.feed(Array("\u{1B}OA\r".utf8)) == [.up, .enter])
        #expect(decoder.feed(Array("\u{1B}[1;5Cx0\u{1B}[A".utf8)) == [.up])
    }

    /// Names the device chose (control characters, escape sequences, bidirectional marks, any length) show
    /// as visible escapes, and no line is wider than the terminal.
    @Test func hostileNamesShowAsInertTextWithinTheWidth() {
        var random = SplitMix64(seed: 0xD1C_0030)
        let pieces = [
            "\u{1B}[2J", "\u{1B}]0;owned\u{07}", "\u{9B}31m", "\r", "\u{8}", "\u{7F}", "\u{202E}", "\u{2066}",
            "\u{200F}",
            "\n", "MH-", "ä", String(repeating: "W", count: 200),
        ]
        for _ in 0..<200 {
            let candidates = (0..<(2 + random.below(4))).map { index in
                let name = (0..<(1 + random.below(6))).map { _ in pieces[random.below(pieces.count)] }.joined()
                return BLECandidate(address: "24:0A:C4:00:01:0\(index)", name: name, rssi: -40 - random.below(50))
            }
            let width = 20 + random.below(120)
            for line in DevicePicker(candidates).frame(width: width) {
                #expect(line.count < width, "\(line.debugDescription)")
                #expect(!line.unicodeScalars.contains(where: TerminalText.isActive), "\(line.debugDescription)")
            }
        }
    }
}
