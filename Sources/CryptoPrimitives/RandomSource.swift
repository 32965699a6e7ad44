/// Where protocol cores get their random bytes.
///
/// Cores store a source as a value and draw from it through `mutating` calls, so copying a session
/// copies its future randomness too: a test can replay a captured exchange byte for byte by
/// handing a core a ``ScriptedRandomSource`` or ``SeededRandomSource`` instead of the system one.
public protocol RandomSource: Sendable {
    /// Returns `count` fresh bytes.
    mutating func bytes(_ count: Int) -> [UInt8]
}

/// Cryptographically secure bytes from OpenSSL's DRBG; what every real run uses.
public struct SystemRandomSource: RandomSource {
    public init() {}

    public mutating func bytes(_ count: Int) -> [UInt8] {
        OpenSSLRandom.bytes(count)
    }
}

/// A deterministic stream: SHA-256(seed ‖ 64-bit big-endian block counter), block after block.
///
/// For tests and replayable demos only; the output is predictable by design.
public struct SeededRandomSource: RandomSource {
    private let seed: [UInt8]
    private var blockCounter: UInt64 = 0
    private var pending: [UInt8] = []

    public init(seed: [UInt8]) {
        self.seed = seed
    }

    public mutating func bytes(_ count: Int) -> [UInt8] {
        while pending.count < count {
            let counterBytes = (0..<8).map { UInt8(truncatingIfNeeded: blockCounter >> (56 - 8 * UInt64($0))) }
            pending += Digest.sha256(seed + counterBytes)
            blockCounter += 1
        }
        defer { pending.removeFirst(count) }
        return Array(pending.prefix(count))
    }
}

/// Hands out exactly the bytes it was given, in order: lets a test inject the private keys and
/// nonces of a worked example.
public struct ScriptedRandomSource: RandomSource {
    private var remaining: ArraySlice<UInt8>

    public init(_ bytes: [UInt8]) {
        remaining = bytes[...]
    }

    /// Returns the next `count` scripted bytes; running past the script is a bug in the test.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        precondition(remaining.count >= count, "ScriptedRandomSource ran out: \(count) wanted, \(remaining.count) left")
        defer { remaining = remaining.dropFirst(count) }
        return Array(remaining.prefix(count))
    }
}
