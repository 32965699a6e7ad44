/// The fuzzer's bytes read as a script: single decision bytes and length-prefixed pieces.
///
/// Harnesses turn one flat input into several events (notifications, datagrams, reads). Every
/// read succeeds with whatever is left, so any byte string is a valid script and libFuzzer's
/// mutations stay meaningful.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    /// Copies the `count` bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
    public init(_ data: UnsafePointer<UInt8>?, count: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    }

    /// Whether every byte was read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte, or 0 once the input is exhausted.
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A piece whose length is the next two bytes (little-endian), cut short at the end of the input.
    public mutating func piece() -> [UInt8] {
        let length = Int(byte()) | Int(byte()) << 8
        let end = min(bytes.count, offset + length)
        defer { offset = end }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    /// Every piece up to the end of the input.
    public mutating func pieces() -> [[UInt8]] {
        var result: [[UInt8]] = []
        while !isAtEnd { result.append(piece()) }
        return result
    }

    /// All bytes not read yet.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
