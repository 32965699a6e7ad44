import BluFi
import CryptoPrimitives
import TestSupport
import Testing

/// Whole sessions of `Vectors/worked-examples.json` replayed byte for byte: client and device session with the
/// worked examples' private keys injected, every listed frame compared on the wire.
@Suite struct BluFiSessionVectorTests {
    private let examples: WorkedExamples

    init() throws {
        examples = try WorkedExamples.load()
    }

    @Test func v1SessionProducesTheListedFrames() throws {
        let v1 = examples.v1
        var pair = try provisionedPair(
            version: BluFiVersion(major: 1, minor: 3), security: .v1,
            phonePrivate: scriptedPrivateKey(v1.phonePrivate, width: 128),
            devicePrivate: scriptedPrivateKey(v1.devicePrivate, width: 128))
        try pair.request { client throws(BluFiError) in try client.requestedWiFiStatus() }

        let frames = v1.frames
        let parameters =
            [UInt8](hex: "01 0080") + [UInt8](hex: v1.prime) + [UInt8](hex: "0001 02 0080")
            + [UInt8](hex: v1.phonePublic)
        let phone = pair.phoneFrames
        #expect(phone.count == 10)
        #expect(phone[0] == [UInt8](hex: examples.plainFrames.getVersion))
        #expect(phone[1] == [UInt8](hex: frames.negotiationLength))
        #expect(phone[2] == [UInt8](hex: frames.negotiationDataFirstHeader) + parameters.prefix(249))
        #expect(phone[2].count == 255)
        #expect(phone[3] == [UInt8](hex: frames.negotiationDataLastHeader) + parameters.dropFirst(249))
        #expect(phone[3].dropFirst(4).starts(with: [UInt8](hex: frames.negotiationDataLastContentPrefix)))
        let listed = [
            frames.setSecurityMode, frames.setOperationMode, frames.staSSID, frames.staPassword, frames.connectAP,
            frames.getWiFiStatus,
        ]
        #expect(phone.dropFirst(4).map(\.hexString) == listed.map { [UInt8](hex: $0).hexString })

        let device = pair.deviceFrames
        #expect(device[0] == [UInt8](hex: examples.plainFrames.deviceVersion13))
        #expect(device[1] == [UInt8](hex: frames.deviceNegotiationHeader) + [UInt8](hex: v1.devicePublic))
        #expect(device[2] == [UInt8](hex: "00 04 02 01 05"))
        #expect(device[3] == [UInt8](hex: frames.deviceWiFiReport))
        #expect(pair.failure == nil)
    }

    @Test func v2SessionProducesTheListedCiphertexts() throws {
        let v2 = examples.v2
        let pair = try provisionedPair(
            version: BluFiVersion(major: 1, minor: 4), security: .v2,
            phonePrivate: scriptedPrivateKey(v2.phonePrivate, width: 48),
            devicePrivate: scriptedPrivateKey(v2.devicePrivate, width: 384))
        #expect(pair.events.contains(.securityEstablished(.v2)))

        let phone = pair.phoneFrames
        #expect(phone[1] == [UInt8](hex: v2.negotiationLength))
        // NEG data: 776 bytes in four frames at L = 255, so the listed frames travel at seq 7, 8, 9.
        let parameters = phone[2...5].flatMap { $0[1] & 0x10 != 0 ? $0.dropFirst(6) : $0.dropFirst(4) }
        #expect(parameters.count == 776)
        #expect(Digest.sha256(Array(parameters.suffix(384))).hexString == v2.sha256OfPhonePublic)
        let printed = v2.framesAtPrintedSequences
        try expectSameCiphertext(phone[7], as: printed.setOperationMode, plaintext: [1])
        try expectSameCiphertext(phone[8], as: printed.staSSID, plaintext: Array(examples.v1.ssid.utf8))
        try expectSameCiphertext(phone[9], as: printed.staPassword, plaintext: Array(examples.v1.password.utf8))

        let device = pair.deviceFrames
        // The 384-byte key takes two device frames at MTU 517 (244 + 140 bytes).
        let devicePublic = Array(device[1].dropFirst(6)) + Array(device[2].dropFirst(4))
        #expect(Digest.sha256(devicePublic).hexString == v2.sha256OfDevicePublic)
        let report = [UInt8](hex: examples.v1.wifiReportPlaintext)
        try expectSameCiphertext(device[4], as: printed.deviceWiFiReport, plaintext: report)
    }

    /// Runs version → negotiation → STA provisioning → join on a pair whose keys come from the vectors.
    private func provisionedPair(
        version: BluFiVersion, security: BluFiSecurityScheme, phonePrivate: [UInt8], devicePrivate: [UInt8]
    ) throws -> BluFiSessionPair {
        let configuration = BluFiDeviceConfiguration(
            version: version, security: security, joinedBSSID: [UInt8](hex: examples.v1.bssid))
        var pair = BluFiSessionPair(
            client: BluFiClient(random: ScriptedRandomSource(phonePrivate)),
            device: BluFiDeviceSession(configuration: configuration, random: ScriptedRandomSource(devicePrivate)))
        pair.connect(mtu: 517)
        let station = BluFiStationConfiguration(ssid: examples.v1.ssid, password: examples.v1.password)
        try pair.request { client throws(BluFiError) in try client.requestedProvisioning(.init(.station(station))) }
        pair.completeJoin()
        #expect(pair.events.last.map { if case .provisioned = $0 { true } else { false } } == true)
        return pair
    }

    /// Same header except the sequence number, same encrypted data, and a checksum over `plaintext`
    /// that is valid for the frame's real sequence number.
    private func expectSameCiphertext(_ frame: [UInt8], as listedHex: String, plaintext: [UInt8]) throws {
        let listed = [UInt8](hex: listedHex)
        try #require(frame.count == listed.count)
        #expect(frame[0] == listed[0] && frame[1] == listed[1] && frame[3] == listed[3])
        #expect(frame[4..<frame.count - 2] == listed[4..<listed.count - 2])
        let checksum = UInt16(frame[frame.count - 2]) | UInt16(frame[frame.count - 1]) << 8
        #expect(checksum == BluFiChecksum.compute([frame[2], frame[3]] + plaintext))
    }
}
