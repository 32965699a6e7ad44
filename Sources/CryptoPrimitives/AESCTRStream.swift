/// An AES-CTR keystream that continues across calls, as protocomm security 1 and BluFi V2 require.
///
/// The counter block is a 128-bit big-endian integer starting at `initialCounter`. Each call to
/// ``apply(_:)`` consumes as many keystream bytes as it is given, partial blocks included, so two
/// calls of 5 and 27 bytes produce exactly what one call of 32 bytes would. The stream is a value:
/// copying it forks the keystream position, which keeps sessions replayable.
public struct AESCTRStream: Sendable {
    private let key: [UInt8]
    private let initialCounter: [UInt8]
    /// Keystream bytes consumed so far.
    public private(set) var position: UInt64 = 0

    public init(key: [UInt8], initialCounter: [UInt8]) throws(CryptoError) {
        try AES.checkKey(key)
        try AES.checkBlockSizedIV(initialCounter)
        self.key = key
        self.initialCounter = initialCounter
    }

    /// XORs `data` with the next keystream bytes: encryption and decryption are the same operation.
    public mutating func apply(_ data: [UInt8]) -> [UInt8] {
        guard !data.isEmpty else { return [] }
        let blockIndex = position / UInt64(AES.blockSize)
        let offsetInBlock = Int(position % UInt64(AES.blockSize))
        let counter = Self.add(blockIndex, to: initialCounter)
        let input = [UInt8](repeating: 0, count: offsetInBlock) + data
        // Key and counter were validated in init, so OpenSSL can only fail on allocation.
        guard let output = try? OpenSSLCipher.crypt(.ctr, key: key, iv: counter, input: input, encrypting: true) else {
            fatalError("OpenSSL failed to run AES-CTR with a validated key")
        }
        position += UInt64(data.count)
        return Array(output.dropFirst(offsetInBlock))
    }

    /// The counter block `blocks` steps after `counter`, wrapping at 2^128 like every CTR implementation here.
    static func add(_ blocks: UInt64, to counter: [UInt8]) -> [UInt8] {
        var result = counter
        var carry = blocks
        var index = result.count - 1
        while carry > 0 && index >= 0 {
            let sum = UInt64(result[index]) + (carry & 0xFF)
            result[index] = UInt8(truncatingIfNeeded: sum)
            carry = (carry >> 8) + (sum >> 8)
            index -= 1
        }
        return result
    }
}
