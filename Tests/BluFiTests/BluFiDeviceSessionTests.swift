import BluFi
import CryptoPrimitives
import TestSupport
import Testing

/// The device session alone: ESP-IDF's receive order and error codes, the example's field limits,
/// silent drops, and the negotiation checks of both security generations.
@Suite struct BluFiDeviceSessionTests {
    @Test func rejectedLengthDoesNotConsumeTheSequenceSoTheNextFrameIsOutOfOrder() {
        var device = connectedDevice()
        #expect(
            device.receivedWrite([UInt8](hex: "1c 00 00 00 00")) == [
                .notify([UInt8](hex: "49 04 00 01 09")),
                .report(.errorSent(.dataFormat, cause: .frameLengthMismatch(expected: 4, received: 5))),
            ])
        #expect(device.receivedWrite([UInt8](hex: "1c 00 01 00")).first == .notify([UInt8](hex: "49 04 01 01 00")))
        #expect(device.receivedWrite([UInt8](hex: "1c 00 00 00")) == [.notify([UInt8](hex: "41 04 02 02 01 03"))])
    }

    @Test func checksumAndDecryptionFailuresConsumeTheSequence() {
        var device = connectedDevice()
        #expect(
            device.receivedWrite([UInt8](hex: "09 02 00 06 6d7973736964 00 00")).first
                == .notify([UInt8](hex: "49 04 00 01 01")))
        #expect(device.receivedWrite([UInt8](hex: "09 01 01 01 41")).first == .notify([UInt8](hex: "49 04 01 01 02")))
        #expect(device.receivedWrite([UInt8](hex: "1c 00 02 00")) == [.notify([UInt8](hex: "41 04 02 02 01 03"))])
    }

    @Test func requestedAcknowledgementComesFirstAndFollowsTheControlChecksumBit() {
        var device = connectedDevice()
        #expect(
            device.receivedWrite([UInt8](hex: "08 08 00 01 01")) == [
                .notify([UInt8](hex: "00 04 00 01 00")), .report(.operationModeChanged(.station)),
            ])
        _ = device.receivedWrite([UInt8](hex: "04 00 01 01 10"))
        let ack = device.receivedWrite([UInt8](hex: "14 08 02 00")).first
        let checksum = BluFiChecksum.compute([1, 1, 2])
        #expect(ack == .notify([0x00, 0x06, 0x01, 0x01, 0x02, UInt8(checksum & 0xFF), UInt8(checksum >> 8)]))
    }

    @Test func acknowledgementPrecedesAFragmentError() {
        var device = connectedDevice()
        #expect(
            device.receivedWrite([UInt8](hex: "4d 18 00 01 05")) == [
                .notify([UInt8](hex: "00 04 00 01 00")),
                .notify([UInt8](hex: "49 04 01 01 09")),
                .report(.errorSent(.dataFormat, cause: .fragmentWithoutLengthPrefix)),
            ])
        _ = device.receivedWrite([UInt8](hex: "4d 10 01 02 05 00"))
        #expect(
            device.receivedWrite([UInt8](hex: "4d 10 02 03 05 00 41")).first == .notify([UInt8](hex: "49 04 02 01 0c")))
    }

    @Test(arguments: [
        (BluFiFrameType.staSSID, 31, true), (.staSSID, 32, false), (.staPassword, 63, true), (.staPassword, 64, false),
        (.staBSSID, 6, true), (.staBSSID, 5, false), (.softAPSSID, 32, false), (.softAPPassword, 31, true),
        (.softAPPassword, 32, false), (.softAPChannel, 0, false), (.softAPAuthMode, 1, true),
    ])
    func fieldLimitsOfTheReferenceExample(type: BluFiFrameType, length: Int, accepted: Bool) throws {
        var device = connectedDevice()
        let value = [UInt8](repeating: 0x37, count: length)
        let actions = device.receivedWrite(try plainFrame(BluFiMessage(type, value)))
        if accepted {
            #expect(actions == [.report(.fieldReceived(type, value))])
            #expect(device.fields[type] == value)
        } else {
            #expect(actions.first == .notify([UInt8](hex: "49 04 00 01 09")))
            #expect(device.fields[type] == nil)
        }
    }

    @Test func outOfRangeOneByteValuesAreIgnoredOrRefused() throws {
        var device = connectedDevice()
        var phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 517)
        #expect(
            device.receivedWrite(try phone.encode(BluFiMessage(.softAPChannel, [14]))[0]) == [
                .report(.fieldReceived(.softAPChannel, [14]))
            ])
        _ = device.receivedWrite(try phone.encode(BluFiMessage(.softAPMaxConnections, [5]))[0])
        #expect(device.fields.isEmpty)
        #expect(
            device.receivedWrite(try phone.encode(BluFiMessage(.setOperationMode, [4]))[0]).first
                == .notify([UInt8](hex: "49 04 00 01 09")))
        #expect(
            device.receivedWrite(try phone.encode(BluFiMessage(.setSecurityMode, []))[0]).first
                == .notify([UInt8](hex: "49 04 01 01 09")))
        #expect(device.operationMode == .station && device.securityMode == [])
    }

    @Test(arguments: ["28 00 00 00", "81 00 00 00", "41 00 00 02 01 03", "03 00 00 00", "3d 00 00 00"])
    func unknownAndDeviceOnlySubtypesAreDroppedSilently(hex: String) {
        var device = connectedDevice()
        let bytes = [UInt8](hex: hex)
        #expect(device.receivedWrite(bytes) == [.report(.frameDropped(BluFiFrameType(rawValue: bytes[0])))])
        #expect(device.receivedWrite([UInt8](hex: "1c 00 01 00")) == [.notify([UInt8](hex: "41 04 00 02 01 03"))])
    }

    @Test func emptyScanIsSilentAndDisconnectClosesTheLink() {
        var device = connectedDevice()
        #expect(device.receivedWrite([UInt8](hex: "24 00 00 00")) == [])
        #expect(device.receivedWrite([UInt8](hex: "20 00 01 00")) == [.disconnect])
    }

    @Test(arguments: [
        (BluFiSecurityScheme.v1, ["01 00 00 02 00 01"], BluFiDeviceErrorCode.dataFormat),
        (.none, ["01 00 00 03 00 01 07"], .initSecurity),
        (.v1, ["01 00 00 03 00 00 00"], .dhParameter),
        (.v1, ["01 00 00 03 00 04 01"], .dhParameter),
        (.v1, ["01 00 00 04 01 00 01 02"], .dhParameter),
        (.v1, ["01 00 00 03 00 00 0a", "01 00 01 05 01 00 01 02 00"], .dhParameter),
        (.v1, ["01 00 00 03 00 00 06", "01 00 01 07 01 00 05 02 00 01 02"], .dhParameter),
        (.v1, ["01 00 00 03 00 00 09", "01 00 01 0a 01 00 01 17 00 01 05 00 01 01"], .readParameter),
        (.v1, ["01 00 00 03 00 00 0a", "01 00 01 0b 01 00 02 10 00 00 01 02 00 01 05"], .makePublic),
        (.v2, ["01 00 00 03 07 00 00"], .dataFormat),
    ])
    func negotiationChecksReportTheExamplesCodes(
        security: BluFiSecurityScheme, frames: [String], code: BluFiDeviceErrorCode
    ) {
        var device = connectedDevice(security: security)
        let actions = frames.flatMap { device.receivedWrite([UInt8](hex: $0)) }
        #expect(actions.compactMap(\.errorCode) == [code])
    }

    @Test func unusedSubCodesAreIgnored() {
        var v1 = connectedDevice(security: .v1)
        #expect(v1.receivedWrite([UInt8](hex: "01 00 00 03 07 00 00")) == [])
        var v2 = connectedDevice(security: .v2)
        #expect(v2.receivedWrite([UInt8](hex: "01 00 00 03 04 00 00")) == [])
    }

    @Test func keyWidthMustMatchTheDevicesGeneration() throws {
        var random = SeededRandomSource(seed: [9])
        let v1Key = DHKeyPair.generate(in: try #require(BluFiSecurityScheme.v1.group), using: &random)
        let v2Key = DHKeyPair.generate(in: .ffdhe3072, using: &random)
        // A V2 client against a V1 device: its 3072-bit prime is refused.
        var v1Device = connectedDevice(security: .v1)
        #expect(negotiate(&v1Device, group: .ffdhe3072, publicKey: v2Key.publicKey) == [.dhParameter])
        // A V1 client against a V2 device: its 128-byte key is refused.
        var v2Device = connectedDevice(security: .v2)
        #expect(
            negotiate(&v2Device, group: try #require(BluFiSecurityScheme.v1.group), publicKey: v1Key.publicKey) == [
                .dhParameter
            ])
        // p − 1 is a valid-looking 384-byte key that a current device refuses.
        let pMinusOne = DHGroup.ffdhe3072.prime.subtracting(BigNumber(1), modulus: DHGroup.ffdhe3072.prime)
        var strict = connectedDevice(security: .v2)
        #expect(
            negotiate(&strict, group: .ffdhe3072, publicKey: pMinusOne.bigEndianBytes(count: 384)) == [.dhParameter])
    }

    @Test func newV2NegotiationDropsTheOldKeys() throws {
        var pair = BluFiSessionPair(
            device: BluFiDeviceConfiguration(version: BluFiVersion(major: 1, minor: 4), security: .v2))
        pair.connect(mtu: 517)
        #expect(pair.events.contains(.securityEstablished(.v2)))
        // The phone's next numbers are 7 (a fresh NEG length) and 8 (an encrypted frame).
        _ = pair.device.receivedWrite([UInt8](hex: "01 00 07 03 00 03 07"))
        let actions = pair.device.receivedWrite([UInt8](hex: "09 01 08 01 41"))
        #expect(actions.compactMap(\.errorCode) == [.decrypt])
    }

    @Test func encryptionWithoutKeysBecomesError3() {
        var device = connectedDevice()
        _ = device.receivedWrite([UInt8](hex: "04 00 00 01 02"))
        #expect(device.receivedWrite([UInt8](hex: "14 00 01 00")).compactMap(\.errorCode) == [.encrypt])
    }

    @Test func reconnectingResetsTheLinkButKeepsTheNetwork() throws {
        var pair = BluFiSessionPair(device: BluFiDeviceConfiguration())
        pair.connect(mtu: 185)
        let station = BluFiStationConfiguration(ssid: "Zhiting-Home", password: "secret-pass")
        try pair.request { client throws(BluFiError) in try client.requestedProvisioning(.init(.station(station))) }
        pair.completeJoin()

        var device = pair.device
        device.disconnected()
        #expect(device.receivedWrite([UInt8](hex: "14 00 00 00")) == [])
        device.connected(mtu: 517)
        let report = try BluFiWiFiReport(payload: [UInt8](hex: "01 00 00 01 06 112233445566 02 0c") + station.ssid)
        #expect(
            device.receivedWrite([UInt8](hex: "14 00 00 00")) == [
                .notify([0x3D, 0x04, 0x00, UInt8(report.payload.count)] + report.payload)
            ])
    }

    private func connectedDevice(security: BluFiSecurityScheme = .v1) -> BluFiDeviceSession {
        var device = BluFiDeviceSession(
            configuration: BluFiDeviceConfiguration(security: security), random: SeededRandomSource(seed: [8]))
        device.connected(mtu: 517)
        return device
    }

    private func plainFrame(_ message: BluFiMessage) throws -> [UInt8] {
        var phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 517)
        return try #require(try phone.encode(message).first)
    }

    /// Sends both NEG messages for `publicKey` and returns the error codes the device answered with.
    private func negotiate(_ device: inout BluFiDeviceSession, group: DHGroup, publicKey: [UInt8])
        -> [BluFiDeviceErrorCode]
    {
        var phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 517)
        let parameters = BluFiNegotiation.parameterDataMessage(group: group, publicKey: publicKey)
        let messages = [BluFiNegotiation.parameterLengthMessage(for: parameters), parameters]
        let frames = messages.flatMap { (try? phone.encode(BluFiMessage(.negotiation, $0))) ?? [] }
        return frames.flatMap { device.receivedWrite($0) }.compactMap(\.errorCode)
    }
}

extension BluFiDeviceSession.Action {
    /// The code of an ERROR the device reported.
    var errorCode: BluFiDeviceErrorCode? {
        if case .report(.errorSent(let code, _)) = self { code } else { nil }
    }
}
