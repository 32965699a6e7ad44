import BluFi
import CryptoPrimitives
import FuzzSupport

/// Feeds a live ``BluFiClient`` device notifications chosen by the fuzzer, in every security scheme.
///
/// Script: a setup byte picks the starting session (awaiting the version, or ready with no security,
/// V1 or V2), then steps; each step's byte (mod 6) is:
/// 0. a raw notification (the next piece);
/// 1. a device message (type byte, control byte, payload piece) encoded by the matching device-side
///    encoder, so checksums, encryption and fragments are valid and the dispatch behind them is reached;
/// 2. a sealed frame with one byte flipped (position byte, mask byte);
/// 3. the current wait's deadline passing;
/// 4. a client request (status, scan, provisioning, custom data, deauthentication, disconnect);
/// 5. the link dropping and coming back.
enum BluFiClientFuzzer {
    static func testOneInput(_ input: inout FuzzInput) {
        let sessions = BluFiFuzzSession.starts
        var session = sessions[Int(input.byte()) % sessions.count]
        while !input.isAtEnd {
            switch input.byte() % 6 {
            case 0: session.deliver(input.piece())
            case 1: session.deliver(message(from: &input))
            case 2: session.deliverFlipped(message(from: &input), at: Int(input.byte()), mask: input.byte() | 1)
            case 3: _ = session.client.deadlinePassed()
            case 4: session.request(Int(input.byte()))
            default: session.reconnect(mtu: Int(input.byte()))
            }
        }
    }

    private static func message(from input: inout FuzzInput) -> (BluFiMessage, BluFiFrameControl) {
        let type = BluFiFrameType(rawValue: input.byte())
        let control = BluFiFrameControl(rawValue: input.byte()).intersection([
            .encrypted, .checksum, .acknowledgementRequired,
        ])
        return (BluFiMessage(type, input.piece()), control)
    }
}

/// libFuzzer's entry point: one input per call; 0 means the input may join the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count: count)
    BluFiClientFuzzer.testOneInput(&input)
    return 0
}
