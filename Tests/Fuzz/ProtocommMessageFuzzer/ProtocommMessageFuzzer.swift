import FuzzSupport
import Protocomm
import ProtocommFuzzSupport

/// Feeds the client's parsers of everything after the handshake: `proto-ver` bodies and the Wi-Fi
/// config, scan and control responses, through each scheme's cipher.
///
/// Script: a setup byte picks the scheme (its ciphers come from a genuine handshake), then steps;
/// a step's byte picks the request whose response is read (bits 0–2) and whether the piece is
/// ciphertext as is (bit 3 clear) or plaintext the device cipher encrypts first (bit 3 set), so
/// the parsers behind authenticated encryption are reached. `proto-ver` bodies are read as is.
enum ProtocommMessageFuzzer {
    static let sessions: [ProtocommFuzzHandshake] = ProtocommFuzzHandshake.securities.map {
        ProtocommFuzzHandshake(client: $0.client, device: $0.device, replies: 2)
    }

    /// Reads `body` as the reply the `choice`th request expects: 0 is `proto-ver`, 1–5 the Wi-Fi
    /// config, scan and control responses.
    static func read(_ body: [UInt8], as choice: Int) throws(ProtocommError) {
        switch choice {
        case 0: _ = try ProtocommVersionInfo(responseBody: body)
        case 1: _ = try ProtocommWiFiConfigRequest.getStatus.response(from: body)
        case 2: _ = try ProtocommWiFiConfigRequest.applyConfig.response(from: body)
        case 3: _ = try ProtocommWiFiScanRequest.status.response(from: body)
        case 4: _ = try ProtocommWiFiScanRequest.results(startIndex: 0, count: 4).response(from: body)
        default: _ = try ProtocommWiFiControlRequest.reset.response(from: body)
        }
    }

    static func testOneInput(_ input: inout FuzzInput) {
        let session = sessions[Int(input.byte()) % sessions.count]
        guard var client = session.clientCipher, var device = session.deviceCipher else {
            preconditionFailure("fixed handshakes must establish both ciphers")
        }
        while !input.isAtEnd {
            let step = input.byte()
            let piece = input.piece()
            let choice = Int(step & 0x07) % 6
            if choice == 0 {
                try? read(piece, as: 0)
                continue
            }
            guard let wire = step & 0x08 == 0 ? piece : try? device.encrypt(piece),
                let plaintext = try? client.decrypt(wire)
            else { continue }
            try? read(plaintext, as: choice)
        }
    }
}

/// libFuzzer's entry point: one input per call; 0 means the input may join the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count: count)
    ProtocommMessageFuzzer.testOneInput(&input)
    return 0
}
