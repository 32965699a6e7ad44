import CryptoPrimitives

/// Reproducible hostile inputs: random byte strings, and valid messages with bytes flipped,
/// cut off or spliced in (which reach deeper into a decoder than pure noise does).
struct FuzzInputs: Sequence, IteratorProtocol {
    private var random: SeededRandomSource
    private let seeds: [[UInt8]]
    private var remaining: Int

    init(seed: String, count: Int, mutating seeds: [[UInt8]] = []) {
        random = SeededRandomSource(seed: Array(seed.utf8))
        self.seeds = seeds.filter { !$0.isEmpty }
        remaining = count
    }

    mutating func next() -> [UInt8]? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        let choice = Int(random.bytes(1)[0])
        if seeds.isEmpty || choice < 96 {
            return random.bytes(choice % 72)
        }
        return mutated(seeds[choice % seeds.count])
    }

    private mutating func mutated(_ original: [UInt8]) -> [UInt8] {
        var bytes = original
        let control = random.bytes(4)
        let position = Int(control[1]) % bytes.count
        switch control[0] % 4 {
        case 0: bytes[position] ^= control[2] | 1
        case 1: bytes = Array(bytes.prefix(position))
        case 2: bytes.insert(contentsOf: random.bytes(Int(control[2] % 8) + 1), at: position)
        default: bytes[position] = control[3]
        }
        return bytes
    }
}
