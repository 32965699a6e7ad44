extension Sequence<UInt8> {
    /// Each byte as two lower-case hex digits, joined by colons (`24:0a:c4:12:34:56`): how BSSIDs and Bluetooth
    /// addresses read.
    public var colonSeparatedHex: String {
        map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }.joined(separator: ":")
    }
}
