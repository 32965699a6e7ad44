import Sockets
import TestSupport
import Testing

/// Mutated responses, fed whole and in random pieces: the parser must never trap, and where the
/// bytes are split must never change what it reports.
@Suite struct HTTPResponseParserFuzzTests {
    enum Outcome: Equatable {
        case parsed([HTTPResponse], ending: HTTPResponseParserError?)
    }

    static func outcome(of bytes: [UInt8], chunks: [Int]) -> Outcome {
        var parser = HTTPResponseParser(limits: HTTPResponseParser.Limits(headerSectionBytes: 256, bodyBytes: 64))
        var responses: [HTTPResponse] = []
        var offset = 0
        do {
            for size in chunks + [bytes.count] where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                parser.received(bytes[offset..<end])
                offset = end
                while let response = try parser.nextResponse() {
                    responses.append(response)
                }
            }
            try parser.receivedEndOfStream()
            return .parsed(responses, ending: nil)
        } catch {
            return .parsed(responses, ending: error)
        }
    }

    static func mutated(_ bytes: [UInt8], using random: inout SplitMix64) -> [UInt8] {
        var result = bytes
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            let position = Int.random(in: 0..<result.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: result[position] = UInt8.random(in: 0...255, using: &random)
            case 1: result.insert(UInt8.random(in: 0...255, using: &random), at: position)
            case 2: result.remove(at: position)
            default: result.insert(contentsOf: [0x0D, 0x0A], at: position)
            }
            if result.isEmpty { result = [0] }
        }
        return result
    }

    @Test func splittingNeverChangesTheOutcome() {
        var random = SplitMix64(seed: 0x7A70_0001)
        let base = HTTPResponseParserTests.sample + HTTPResponseParserTests.sample
        var sawResponses = 0
        var sawErrors = 0
        for iteration in 0..<3000 {
            let bytes = Self.mutated(base, using: &random)
            let whole = Self.outcome(of: bytes, chunks: [])
            let chunks = (0..<8).map { _ in Int.random(in: 1...12, using: &random) }
            #expect(Self.outcome(of: bytes, chunks: chunks) == whole, "iteration \(iteration)")
            if case .parsed(let responses, let ending) = whole {
                sawResponses += responses.count
                sawErrors += ending == nil ? 0 : 1
            }
        }
        // The mutations must exercise both paths, or the property above proves little.
        #expect(sawResponses > 1000)
        #expect(sawErrors > 500)
    }
}
