import FuzzSupport
import Sockets

/// Feeds arbitrary bytes to the HTTP response parser, whole and in the fuzzer's pieces.
///
/// Besides "never trap", one property is checked: where the bytes are split never changes the
/// responses or the final error, since a TCP stream may be cut anywhere.
enum HTTPResponseParserFuzzer {
    private enum Outcome: Equatable {
        case parsed([HTTPResponse], ending: HTTPResponseParserError?)
    }

    static func testOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
        var input = FuzzInput(data, count: count)
        let pieces = input.pieces()
        let split = outcome(of: pieces)
        let whole = outcome(of: [pieces.flatMap { $0 }])
        precondition(split == whole, "splitting changed the outcome: \(split) vs \(whole)")
        return 0
    }

    private static func outcome(of pieces: [[UInt8]]) -> Outcome {
        var parser = HTTPResponseParser(limits: HTTPResponseParser.Limits(headerSectionBytes: 512, bodyBytes: 256))
        var responses: [HTTPResponse] = []
        do {
            for piece in pieces {
                parser.received(piece)
                while let response = try parser.nextResponse() { responses.append(response) }
            }
            try parser.receivedEndOfStream()
            return .parsed(responses, ending: nil)
        } catch {
            return .parsed(responses, ending: error)
        }
    }
}

/// libFuzzer's entry point: one input per call, 0 means "keep it if it found something new".
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    HTTPResponseParserFuzzer.testOneInput(data, count)
}
