import BluFi
import CryptoPrimitives
import FuzzSupport

/// Drives one direction's frame decoder and reassembler with frames from the fuzzer.
///
/// Script: a setup byte (bits 0–1 pick no cipher, V1 or V2 keys), then steps. A step's byte is
/// either "deliver the next piece as a raw frame" (even) or "seal a frame from type, control and
/// piece with a matching device-side encoder" (odd), so valid checksums, ciphertext and fragment
/// chains are reached, and raw frames can still break every rule.
enum BluFiFrameDecoderFuzzer {
    /// V1 and V2 keys from one fixed Diffie–Hellman secret; which secret does not matter here.
    static let keys: [BluFiSessionKeys] = [BluFiSecurityScheme.v1, .v2].compactMap { scheme in
        guard let group = scheme.group, let pair = try? DHKeyPair(group: group, privateKey: [0x5A, 0x17]),
            let secret = try? pair.sharedSecret(peerPublicKey: pair.publicKey)
        else { return nil }
        return scheme == .v1 ? .v1(sharedSecret: secret) : .v2(sharedSecret: secret)
    }

    static func testOneInput(_ input: inout FuzzInput) {
        var decoder = BluFiFrameDecoder()
        let keyIndex = Int(input.byte() & 0x03)
        let cipher = keyIndex > 0 && keyIndex <= keys.count ? keys[keyIndex - 1].cipher(for: .deviceToPhone) : nil
        decoder.install(cipher)
        var encoder = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: nil)
        encoder.install(cipher)
        while !input.isAtEnd {
            let step = input.byte()
            let bytes: [UInt8]
            if step & 1 == 0 {
                bytes = input.piece()
            } else {
                let frame = BluFiFrame(
                    type: BluFiFrameType(rawValue: input.byte()), control: BluFiFrameControl(rawValue: input.byte()),
                    sequence: 0, data: Array(input.piece().prefix(BluFiFrame.maximumDataLength)))
                if encoder.nextSequence != decoder.expectedSequence {
                    // A raw frame moved the decoder on; a V2 stream restarted here no longer matches,
                    // which only costs reachability, not validity.
                    encoder = BluFiFrameEncoder(
                        direction: .deviceToPhone, attMTU: nil, startingAt: decoder.expectedSequence)
                    encoder.install(cipher)
                }
                guard let sealed = try? encoder.seal(frame) else { continue }
                bytes = sealed
            }
            guard let frame = try? decoder.decodeFrame(bytes) else { continue }
            _ = try? decoder.reassemble(frame)
        }
    }
}

/// libFuzzer's entry point: one input per call; 0 means the input may join the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count: count)
    BluFiFrameDecoderFuzzer.testOneInput(&input)
    return 0
}
