import BluFi
import CryptoPrimitives
import TestSupport
import Testing

/// Every value of `Vectors/worked-examples.json` that does not need a whole session (those are in
/// BluFiSessionVectorTests).
@Suite struct BluFiWorkedExampleTests {
    private let examples: WorkedExamples

    init() throws {
        examples = try WorkedExamples.load()
    }

    @Test func checksumsMatchTheSpec() {
        for vector in examples.checksums {
            let crc = BluFiChecksum.compute([UInt8](hex: vector.input))
            #expect(String(crc, radix: 16) == vector.crc, "vector \(vector.id): \(vector.comment)")
        }
    }

    @Test func plainFramesMatchTheSpec() throws {
        var phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: nil)
        var device = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: nil)
        let frames = examples.plainFrames
        #expect(try phone.encode(BluFiMessage(.getVersion)) == [[UInt8](hex: frames.getVersion)])
        #expect(try device.encode(BluFiMessage(.version, [1, 3])) == [[UInt8](hex: frames.deviceVersion13)])
        let setMode = try phone.encode(BluFiMessage(.setOperationMode, [1]), control: .acknowledgementRequired)
        #expect(setMode == [[UInt8](hex: frames.setOperationModeStationWithAck)])
        #expect(try device.encode(BluFiMessage(.ack, [1])) == [[UInt8](hex: frames.deviceAckOfSequence1)])
    }

    @Test func plainFramesDecodeBackToTheirMessages() throws {
        var decoder = BluFiFrameDecoder()
        let version = try decoder.decodeFrame([UInt8](hex: examples.plainFrames.deviceVersion13))
        #expect(version.control == .fromDevice)
        #expect(try decoder.reassemble(version) == BluFiMessage(.version, [1, 3]))
        let ack = try decoder.decodeFrame([UInt8](hex: examples.plainFrames.deviceAckOfSequence1))
        #expect(try decoder.reassemble(ack) == BluFiMessage(.ack, [1]))
    }

    @Test func customDataFragmentsAtMTU23() throws {
        let vector = examples.fragmentationAtMTU23
        var encoder = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 23, startingAt: vector.firstSequence)
        let frames = try encoder.encode(BluFiMessage(.customData, [UInt8](hex: vector.content)), control: .checksum)
        #expect(frames.map(\.hexString) == vector.frames.map { [UInt8](hex: $0).hexString })

        var decoder = BluFiFrameDecoder(expectingSequence: vector.firstSequence)
        var messages: [BluFiMessage] = []
        for frame in frames {
            if let message = try decoder.reassemble(try decoder.decodeFrame(frame)) { messages.append(message) }
        }
        #expect(messages == [BluFiMessage(.customData, [UInt8](hex: vector.content))])
    }

    @Test func v1KeyIsTheMD5OfTheSecret() throws {
        let keys = try v1Keys(phonePrivate: examples.v1.phonePrivate, devicePrivate: examples.v1.devicePrivate)
        #expect(keys.key.hexString == examples.v1.key)
        #expect(keys.phoneToDeviceIV == nil)
    }

    @Test func v1LeadingZeroSecretIsStrippedBeforeHashing() throws {
        let vector = examples.v1LeadingZero
        let keys = try sessionKeys(vector, group: BluFiSecurityScheme.v1.group, derive: BluFiSessionKeys.v1)
        #expect(keys.key.hexString == vector.key)
        #expect(keys.key.hexString != vector.keyFromPaddedSecret)
    }

    @Test func v2KeyAndBothIVsMatchTheSpec() throws {
        let vector = examples.v2
        let keys = try sessionKeys(vector, group: .ffdhe3072, derive: BluFiSessionKeys.v2)
        #expect(keys.key.hexString == vector.key)
        #expect(keys.phoneToDeviceIV?.hexString == vector.phoneToDeviceIV)
        #expect(keys.deviceToPhoneIV?.hexString == vector.deviceToPhoneIV)
    }

    @Test func v2LeadingZeroSecretKeepsItsPadding() throws {
        let vector = examples.v2LeadingZero
        let keys = try sessionKeys(vector, group: .ffdhe3072, derive: BluFiSessionKeys.v2)
        #expect(keys.key.hexString == vector.key)
        #expect(keys.key.hexString != vector.keyFromStrippedSecret)
    }

    /// The vectors list the first encrypted V2 frames at V1's sequence numbers; the ciphertext only
    /// depends on the stream position, the checksum on the sequence number.
    @Test func v2FramesAtThePrintedSequenceNumbers() throws {
        let vector = examples.v2
        let keys = BluFiSessionKeys.v2(
            sharedSecret: try sharedSecret(
                group: .ffdhe3072, phonePrivate: vector.phonePrivate, devicePrivate: vector.devicePrivate))
        var phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 517, startingAt: 5)
        phone.install(keys.cipher(for: .phoneToDevice))
        let protected: BluFiFrameControl = [.checksum, .encrypted]
        let frames = [
            try phone.encode(BluFiMessage(.setOperationMode, [1]), control: protected.union(.acknowledgementRequired)),
            try phone.encode(BluFiMessage(.staSSID, Array(examples.v1.ssid.utf8)), control: protected),
            try phone.encode(BluFiMessage(.staPassword, Array(examples.v1.password.utf8)), control: protected),
        ]
        let printed = vector.framesAtPrintedSequences
        #expect(
            frames == [
                [[UInt8](hex: printed.setOperationMode)], [[UInt8](hex: printed.staSSID)],
                [[UInt8](hex: printed.staPassword)],
            ])

        var device = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: 517, startingAt: 3)
        device.install(keys.cipher(for: .deviceToPhone))
        let report = try device.encode(
            BluFiMessage(.wifiReport, [UInt8](hex: examples.v1.wifiReportPlaintext)), control: protected)
        #expect(report == [[UInt8](hex: printed.deviceWiFiReport)])
    }

    /// The keys `derive` makes from a printed exchange's shared secret, once the secret is seen to start as printed.
    private func sessionKeys(
        _ exchange: some WorkedExamples.KeyExchange, group: DHGroup?, derive: (DHSharedSecret) -> BluFiSessionKeys
    ) throws -> BluFiSessionKeys {
        let secret = try sharedSecret(
            group: group, phonePrivate: exchange.phonePrivate, devicePrivate: exchange.devicePrivate)
        #expect(secret.fixedWidth.hexString.hasPrefix(exchange.secretPrefix))
        return derive(secret)
    }

    private func sharedSecret(group: DHGroup?, phonePrivate: String, devicePrivate: String) throws -> DHSharedSecret {
        let group = try #require(group)
        let phone = try DHKeyPair(group: group, privateKey: [UInt8](hex: phonePrivate))
        let device = try DHKeyPair(group: group, privateKey: [UInt8](hex: devicePrivate))
        return try phone.sharedSecret(peerPublicKey: device.publicKey)
    }

    private func v1Keys(phonePrivate: String, devicePrivate: String) throws -> BluFiSessionKeys {
        BluFiSessionKeys.v1(
            sharedSecret: try sharedSecret(
                group: BluFiSecurityScheme.v1.group, phonePrivate: phonePrivate, devicePrivate: devicePrivate))
    }
}
