import BluFi
import CryptoPrimitives
import TestSupport
import Testing

/// The decoder on its own: every rejection rule of ESP-IDF's receive handler, the reassembly state,
/// and round trips through the encoder at every frame size (NIO's decoder-verifier idea, adapted to a
/// transport where one notification is exactly one frame).
@Suite struct BluFiFrameDecoderTests {
    @Test func shortValueIsTruncated() {
        var decoder = BluFiFrameDecoder()
        #expect(throws: BluFiError.truncatedFrame(byteCount: 3)) { try decoder.decodeFrame([0x1C, 0x00, 0x00]) }
        #expect(throws: BluFiError.truncatedFrame(byteCount: 0)) { try decoder.decodeFrame([]) }
        #expect(decoder.expectedSequence == 0)
    }

    @Test(arguments: [
        ("1c 00 00 00 ff", 4, 5),  // a stray trailing byte
        ("09 00 00 02 41", 6, 5),  // data cut short
        ("09 02 00 01 41", 7, 5),  // checksum flagged but missing
        ("09 00 00 01 41 5e 37", 5, 7),  // checksum bytes without the flag (zxf1023818103/blufi's trace)
    ])
    func lengthMustMatchTheHeaderExactly(hex: String, expected: Int, received: Int) throws {
        var decoder = BluFiFrameDecoder()
        #expect(throws: BluFiError.frameLengthMismatch(expected: expected, received: received)) {
            try decoder.decodeFrame([UInt8](hex: hex))
        }
        // The rejected frame did not consume its sequence number.
        #expect(try decoder.decodeFrame([UInt8](hex: "1c 00 00 00")).sequence == 0)
    }

    @Test func sequenceGapIsRejectedWithoutAdvancing() throws {
        var decoder = BluFiFrameDecoder()
        #expect(throws: BluFiError.sequenceMismatch(expected: 0, received: 1)) {
            try decoder.decodeFrame([UInt8](hex: "1c 00 01 00"))
        }
        #expect(decoder.expectedSequence == 0)
        _ = try decoder.decodeFrame([UInt8](hex: "1c 00 00 00"))
        #expect(decoder.expectedSequence == 1)
    }

    @Test func sequenceNumbersWrapAt256() throws {
        var encoder = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: nil)
        var decoder = BluFiFrameDecoder()
        for _ in 0..<300 {
            let frames = try encoder.encode(BluFiMessage(.getWiFiStatus))
            #expect(try decoder.reassemble(decoder.decodeFrame(frames[0])) == BluFiMessage(.getWiFiStatus))
        }
        #expect(encoder.nextSequence == 44 && decoder.expectedSequence == 44)
    }

    @Test func wrongChecksumConsumesTheSequenceAndDropsTheOpenMessage() throws {
        var decoder = BluFiFrameDecoder(expectingSequence: 5)
        _ = try decoder.reassemble(decoder.decodeFrame([UInt8](hex: "4d 10 05 04 08 00 41 42")))
        #expect(decoder.state == .reassembling(declaredLength: 8, content: [0x41, 0x42]))
        // The worked examples' STA_SSID frame at seq 6 with its checksum bytes swapped.
        #expect(throws: BluFiError.checksumMismatch(computed: 0x8EEF, received: 0xEF8E)) {
            try decoder.decodeFrame([UInt8](hex: "09 02 06 06 6d7973736964 8e ef"))
        }
        #expect(decoder.state == .idle)
        #expect(decoder.expectedSequence == 7)
    }

    @Test func encryptedFrameWithoutKeyIsRejected() {
        var decoder = BluFiFrameDecoder()
        #expect(throws: BluFiError.encryptedBeforeNegotiation) {
            try decoder.decodeFrame([UInt8](hex: "09 01 00 01 41"))
        }
    }

    @Test(arguments: [
        (["4d 10 00 01 05"], BluFiError.fragmentWithoutLengthPrefix),
        (["4d 10 00 03 00 00 41"], .fragmentDeclaresZeroLength),
        (["4d 10 00 05 02 00 41 42 43"], .fragmentLengthMismatch(declared: 2, assembled: 3)),
        (["4d 10 00 04 05 00 41 42", "4d 00 01 01 43"], .fragmentLengthMismatch(declared: 5, assembled: 3)),
        (["4d 10 00 04 03 00 41 42", "4d 10 01 04 01 00 43 44"], .fragmentLengthMismatch(declared: 3, assembled: 4)),
        (["4d 10 00 02 05 00", "4d 10 01 03 05 00 41"], .fragmentRestarted),
    ])
    func badFragmentsAreNamed(frames: [String], error: BluFiError) throws {
        var decoder = BluFiFrameDecoder()
        for hex in frames.dropLast() { _ = try decoder.reassemble(decoder.decodeFrame([UInt8](hex: hex))) }
        let last = try decoder.decodeFrame([UInt8](hex: frames[frames.count - 1]))
        #expect(throws: error) { try decoder.reassemble(last) }
        #expect(decoder.state == .idle || error == .fragmentDeclaresZeroLength)
    }

    @Test func laterPrefixesAreReadPastAndTheLastTypeWins() throws {
        // ESP-IDF reads only the first fragment's total and dispatches on the final frame's type.
        var decoder = BluFiFrameDecoder()
        _ = try decoder.reassemble(decoder.decodeFrame([UInt8](hex: "4d 10 00 04 04 00 41 42")))
        _ = try decoder.reassemble(decoder.decodeFrame([UInt8](hex: "4d 10 01 03 ff ff 43")))
        let message = try decoder.reassemble(decoder.decodeFrame([UInt8](hex: "45 00 02 01 44")))
        #expect(message == BluFiMessage(.wifiList, [0x41, 0x42, 0x43, 0x44]))
    }

    @Test(arguments: [nil, 23, 24, 100, 185, 259, 517], [0, 1, 13, 14, 15, 249, 250, 700, 4000])
    func everyMessageSurvivesFragmentationAtEveryMTU(mtu: Int?, length: Int) throws {
        let message = BluFiMessage(.customData, (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        for direction in [BluFiDirection.phoneToDevice, .deviceToPhone] {
            for control in [BluFiFrameControl(), .checksum, .acknowledgementRequired] {
                var encoder = BluFiFrameEncoder(direction: direction, attMTU: mtu)
                let frames = try encoder.encode(message, control: control)
                let limit = direction == .phoneToDevice ? min((mtu ?? 23) - 3, 255) : min(mtu ?? 23, 255) - 3
                #expect(frames.allSatisfy { $0.count <= max(limit, 20) })
                #expect(try decodeAll(frames) == [message])
                #expect(splitsAreRejected(frames[0]) && splitsAreRejected(frames[frames.count - 1]))
                if frames.count > 1 {
                    var decoder = BluFiFrameDecoder()
                    #expect(throws: BluFiError.self) { try decoder.decodeFrame(frames[0] + frames[1]) }
                }
            }
        }
    }

    @Test(arguments: [BluFiSecurityScheme.v1, .v2])
    func encryptedMessagesRoundTripInBothDirections(scheme: BluFiSecurityScheme) throws {
        var random = SeededRandomSource(seed: [0x5E])
        let group = try #require(scheme.group)
        let phone = DHKeyPair.generate(in: group, using: &random)
        let device = DHKeyPair.generate(in: group, using: &random)
        let secret = try phone.sharedSecret(peerPublicKey: device.publicKey)
        let keys = scheme == .v1 ? BluFiSessionKeys.v1(sharedSecret: secret) : .v2(sharedSecret: secret)
        for direction in [BluFiDirection.phoneToDevice, .deviceToPhone] {
            var encoder = BluFiFrameEncoder(direction: direction, attMTU: 23)
            encoder.install(keys.cipher(for: direction))
            var decoder = BluFiFrameDecoder()
            decoder.install(keys.cipher(for: direction))
            let messages = [
                BluFiMessage(.staSSID, Array("myssid".utf8)), BluFiMessage(.getWiFiStatus),
                BluFiMessage(.customData, Array(repeating: 0x42, count: 77)),
            ]
            var frames: [[UInt8]] = []
            for message in messages { frames += try encoder.encode(message, control: [.checksum, .encrypted]) }
            #expect(!frames.contains { $0.dropFirst(4).starts(with: Array("myssid".utf8)) })
            var decoded: [BluFiMessage] = []
            for frame in frames {
                if let message = try decoder.reassemble(decoder.decodeFrame(frame)) { decoded.append(message) }
            }
            #expect(decoded == messages)
        }
    }

    private func decodeAll(_ frames: [[UInt8]]) throws -> [BluFiMessage] {
        var decoder = BluFiFrameDecoder()
        var messages: [BluFiMessage] = []
        for frame in frames {
            if let message = try decoder.reassemble(decoder.decodeFrame(frame)) { messages.append(message) }
        }
        #expect(decoder.state == .idle)
        return messages
    }

    /// Delivering a frame in two notifications (as if the link chopped it) is a length error, never a
    /// message, and consumes no sequence number.
    private func splitsAreRejected(_ frame: [UInt8]) -> Bool {
        (1..<frame.count).allSatisfy { cut in
            var decoder = BluFiFrameDecoder()
            let head = try? decoder.decodeFrame(Array(frame.prefix(cut)))
            let tail = try? decoder.decodeFrame(Array(frame.dropFirst(cut)))
            return head == nil && tail == nil && decoder.expectedSequence == 0
        }
    }
}
