import CryptoPrimitives
import TestSupport
import Testing
import ZhitingLAN

@Suite struct ZhitingPacketTests {
    let example = WorkedExample.shared

    @Test func encodingRoundTripsEveryField() throws {
        let packet = ZhitingPacket(
            reserved: 0x1234,
            deviceID: example.id,
            serial: 0xA0B0_C0D0,
            checksumField: Array(0..<16),
            payload: [1, 2, 3]
        )
        let bytes = packet.encoded()
        #expect(bytes.count == 35)
        #expect(Array(bytes[0..<16]) == [UInt8](hex: "2131 0023 1234 a1b2c3d4e5f6 a0b0c0d0"))
        #expect(try ZhitingPacket(decoding: bytes) == packet)
    }

    @Test func refusesDatagramsShorterThanTheHeader() {
        let datagram = Array(ZhitingHello.request.prefix(31))
        #expect(throws: ZhitingLANError.truncatedPacket(declared: 32, received: 31)) {
            try ZhitingPacket(decoding: datagram)
        }
    }

    @Test func refusesDatagramsShorterThanTheirLengthField() {
        let datagram = Array([UInt8](hex: example.tokenReply).dropLast(16))
        #expect(throws: ZhitingLANError.truncatedPacket(declared: 64, received: 48)) {
            try ZhitingPacket(decoding: datagram)
        }
    }

    @Test func refusesALengthFieldBelowTheHeaderSize() {
        var datagram = ZhitingHello.request
        datagram[3] = 0x10
        #expect(throws: ZhitingLANError.truncatedPacket(declared: 16, received: 32)) {
            try ZhitingPacket(decoding: datagram)
        }
    }

    @Test func refusesTrailingBytesBeyondTheLengthField() {
        let datagram = ZhitingHello.request + [0]
        #expect(throws: ZhitingLANError.lengthMismatch(declared: 32, received: 33)) {
            try ZhitingPacket(decoding: datagram)
        }
    }

    @Test func refusesOversizedDatagramsBeforeLookingInside() {
        let datagram = [UInt8](repeating: 0x21, count: ZhitingPacket.maximumSize + 1)
        #expect(throws: ZhitingLANError.oversizedPacket(ZhitingPacket.maximumSize + 1)) {
            try ZhitingPacket(decoding: datagram)
        }
    }

    @Test func refusesAnotherMagic() {
        var datagram = ZhitingHello.request
        datagram[1] = 0x32
        #expect(throws: ZhitingLANError.badMagic(0x2132)) {
            try ZhitingPacket(decoding: datagram)
        }
    }

    @Test func arbitraryBytesNeverCrashTheDecoderOrTheClient() throws {
        var random = SeededRandomSource(seed: Array("zhiting-fuzz".utf8))
        var client = ZhitingLANClient(deviceID: example.id, sessionKey: example.key, goal: .readInfo)
        _ = client.start()
        for _ in 0..<3000 {
            let length = Int(random.bytes(1)[0]) % 120
            var datagram = random.bytes(length)
            if datagram.count >= 4, random.bytes(1)[0] < 192 {
                // Most cases get a plausible header so the fuzzing reaches past the magic check.
                datagram.replaceSubrange(0..<4, with: [0x21, 0x31, 0, UInt8(datagram.count)])
                if datagram.count >= 12 { datagram.replaceSubrange(6..<12, with: example.id.bytes) }
            }
            _ = try? ZhitingPacket(decoding: datagram)
            _ = try? ZhitingHello.reply(from: datagram)
            let step = try client.receivedDatagram(datagram)
            guard case .ignored = step else {
                Issue.record("random bytes produced \(step)")
                return
            }
        }
    }
}
