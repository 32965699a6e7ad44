/// A key the device picker acts on, decoded from what the terminal sends in non-canonical mode.
enum PickerKey: Sendable, Equatable {
    case up
    case down
    case enter
    /// 1–9: the row with that number.
    case digit(Int)

    /// Turns bytes as they arrive into keys; an escape sequence split across reads is kept until it is whole.
    /// Bytes of other keys are dropped.
    struct Decoder: Sendable {
        private var pending: [UInt8] = []

        mutating func feed(_ bytes: some Sequence<UInt8>) -> [PickerKey] {
            pending += bytes
            var keys: [PickerKey] = []
            while let byte = pending.first {
                if byte == 0x1B {
                    // ESC [ A / ESC O A (up), … B (down); anything else after ESC is dropped whole.
                    guard pending.count >= 3 else {
                        if pending.count == 2, pending[1] != UInt8(ascii: "["), pending[1] != UInt8(ascii: "O") {
                            pending.removeFirst(2)
                            continue
                        }
                        break
                    }
                    switch (pending[1], pending[2]) {
                    case (UInt8(ascii: "["), UInt8(ascii: "A")), (UInt8(ascii: "O"), UInt8(ascii: "A")):
                        keys.append(.up)
                    case (UInt8(ascii: "["), UInt8(ascii: "B")), (UInt8(ascii: "O"), UInt8(ascii: "B")):
                        keys.append(.down)
                    default: break
                    }
                    pending.removeFirst(Self.sequenceLength(pending))
                    continue
                }
                pending.removeFirst()
                switch byte {
                case 0x0D, 0x0A: keys.append(.enter)
                case UInt8(ascii: "1")...UInt8(ascii: "9"): keys.append(.digit(Int(byte - UInt8(ascii: "0"))))
                case UInt8(ascii: "k"): keys.append(.up)
                case UInt8(ascii: "j"): keys.append(.down)
                default: break
                }
            }
            return keys
        }

        /// How many bytes the escape sequence at the start of `bytes` takes: ESC, `[` or `O`, parameters,
        /// and one final byte (0x40–0x7E).
        private static func sequenceLength(_ bytes: [UInt8]) -> Int {
            var index = 2
            while index < bytes.count, bytes[index] < 0x40 || bytes[index] > 0x7E { index += 1 }
            return min(bytes.count, index + 1)
        }
    }
}
