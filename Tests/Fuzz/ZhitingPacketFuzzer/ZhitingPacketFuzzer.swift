import CryptoPrimitives
import FuzzSupport
import ZhitingLAN

/// Feeds the Zhiting packet decoder, the hello-reply reader and the LAN client datagrams.
///
/// Script: a setup byte picks the client's state (awaiting the token for discovery or hand-off,
/// awaiting `get_prop.info`, awaiting the `set_prop.server` echo), then steps. A step's byte picks
/// a raw datagram (bit 0 clear) or a packet the harness frames and encrypts from the piece as the
/// device would (bit 0 set; bit 1 picks the session key or the token as the secret, bits 2–3 the
/// reserved field), so the JSON
/// reply readers behind the cipher are reached. Every datagram that decodes must encode back to
/// the same bytes.
enum ZhitingPacketFuzzer {
    /// Plain replies, an unusual value, and the hello and token-request markers.
    static let reservedValues: [UInt16] = [0, 1, ZhitingPacket.helloReserved, ZhitingPacket.tokenRequestReserved]

    static func testOneInput(_ input: inout FuzzInput) {
        let starts = ZhitingFuzzDevice.starts
        var client = starts[Int(input.byte()) % starts.count]
        while !input.isAtEnd {
            let step = input.byte()
            let piece = input.piece()
            let datagram =
                step & 1 == 0
                ? piece
                : ZhitingFuzzDevice.packet(
                    reserved: reservedValues[Int(step >> 2) & 3], payload: piece,
                    secret: step & 2 == 0 ? ZhitingFuzzDevice.sessionKey.bytes : ZhitingFuzzDevice.token)
            if let packet = try? ZhitingPacket(decoding: datagram) {
                precondition(packet.encoded() == datagram, "a decoded packet must encode to its datagram")
                _ = ZhitingChecksumConvention.recognize(in: packet, sessionKey: ZhitingFuzzDevice.sessionKey)
            }
            _ = try? ZhitingHello.reply(from: datagram)
            _ = try? client.receivedDatagram(datagram)
        }
    }
}

/// libFuzzer's entry point: one input per call; 0 means the input may join the corpus.
@_cdecl("LLVMFuzzerTestOneInput")
func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    var input = FuzzInput(data, count: count)
    ZhitingPacketFuzzer.testOneInput(&input)
    return 0
}
