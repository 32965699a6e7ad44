import FuzzSupport
import Protocomm
import ProtocommFuzzSupport

/// Feeds the client handshake of every security scheme `prov-session` replies from the fuzzer.
///
/// Script: a setup byte picks the scheme and how many genuine device replies were already read
/// (0 or 1), then each piece is the next reply; a failed reply ends nothing, so later pieces probe
/// the session after an error too.
enum ProtocommSessionFuzzer {
    /// Every scheme, fresh and one genuine reply in (security 0 has only one round).
    static let starts: [ProtocommFuzzHandshake] = ProtocommFuzzHandshake.securities.flatMap { security in
        (0...(security.client == .security0 ? 0 : 1)).map {
            ProtocommFuzzHandshake(client: security.client, device: security.device, replies: $0)
        }
    }

    static func testOneInput(_ input: inout FuzzInput) {
        var session = starts[Int(input.byte()) % starts.count].client
        while !input.isAtEnd {
            _ = try? session.receive(input.piece())
            _ = session.isAwaitingVerdict
        }
    }
}

/// libFuzzer's entry point: one input per call; 0 means the input may join the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count: count)
    ProtocommSessionFuzzer.testOneInput(&input)
    return 0
}
