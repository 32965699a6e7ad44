import BluFi
import CryptoPrimitives
import TestSupport
import Testing

/// The client alone, fed hand-made notifications: every bad input ends in a named error (never a
/// crash), misuse is thrown without changing state, deadlines and link loss behave as documented.
@Suite struct BluFiClientTests {
    private static let version13 = [UInt8](hex: "41 04 00 02 01 03")
    private static let station = BluFiStationConfiguration(ssid: "myssid", password: "mypassword123")

    @Test func connectingAsksForTheVersion() {
        var client = BluFiClient(random: SeededRandomSource(seed: [1]))
        #expect(client.connected(mtu: nil) == [.write([0x1C, 0x00, 0x00, 0x00]), .wait(for: .version)])
        #expect(client.awaitedReply == .version)
    }

    @Test(arguments: [
        ("41 04 00 02 01", BluFiError.frameLengthMismatch(expected: 6, received: 5)),
        ("41 04", .truncatedFrame(byteCount: 2)),
        ("41 04 01 02 01 03", .sequenceMismatch(expected: 0, received: 1)),
        ("41 06 00 02 01 03 00 00", .checksumMismatch(computed: BluFiChecksum.compute([0, 2, 1, 3]), received: 0)),
        ("41 05 00 02 01 03", .encryptedBeforeNegotiation),
        ("41 04 00 03 01 03 00", .malformedPayload(.version)),
        ("7d 04 00 00", .unknownFrameType(BluFiFrameType(rawValue: 0x7D))),
        ("02 04 00 00", .unknownFrameType(BluFiFrameType(rawValue: 0x02))),
        ("3d 04 00 03 01 00 00", .unexpectedFrame(.wifiReport)),
        ("49 04 00 01 00", .deviceReportedError(.sequence)),
        ("49 04 00 02 00 00", .malformedPayload(.error)),
    ])
    func badReplyToGetVersionIsNamed(hex: String, error: BluFiError) throws {
        var client = BluFiClient(random: SeededRandomSource(seed: [1]))
        _ = client.connected(mtu: 23)
        #expect(client.receivedNotification([UInt8](hex: hex)) == [.fail(error)])
        #expect(client.receivedNotification(Self.version13) == [], "a failed session ignores the link")
        #expect(throws: BluFiError.sessionEnded) { try client.requestedWiFiList() }
        #expect(try client.requestedDisconnect().last == .finished)
    }

    @Test(arguments: [
        ("3d 04 01 03 01 00 00", BluFiError.unexpectedFrame(.wifiReport)),
        ("4d 04 01 02 69 64", .unexpectedFrame(.customData)),
        ("41 04 01 02 01 03", .unexpectedFrame(.version)),
        ("00 04 01 01 01", .unexpectedFrame(.ack)),
        ("49 04 01 01 06", .deviceReportedError(.dhParameter)),
        ("01 04 01 03 00 00 02", .invalidPublicKey),
        ("fd 04 01 00", .unknownFrameType(BluFiFrameType(rawValue: 0xFD))),
    ])
    func unexpectedFrameMidNegotiationIsNamed(hex: String, error: BluFiError) {
        var client = BluFiClient(random: SeededRandomSource(seed: [2]))
        _ = client.connected(mtu: 517)
        let negotiation = client.receivedNotification(Self.version13)
        #expect(negotiation.first == .report(.versionReceived(BluFiVersion(major: 1, minor: 3))))
        #expect(negotiation.last == .wait(for: .devicePublicKey))
        #expect(client.receivedNotification([UInt8](hex: hex)) == [.fail(error)])
    }

    @Test(arguments: [[UInt8](repeating: 0, count: 128), [0] + [UInt8](repeating: 0, count: 126) + [1]])
    func degenerateDevicePublicKeyIsRefused(key: [UInt8]) {
        var client = BluFiClient(random: SeededRandomSource(seed: [3]))
        _ = client.connected(mtu: 517)
        _ = client.receivedNotification(Self.version13)
        #expect(client.receivedNotification([0x01, 0x04, 0x01, 0x80] + key) == [.fail(.invalidPublicKey)])
    }

    @Test func wrongAcknowledgementIsNamed() throws {
        var client = readyPlainClient()
        let actions = try client.requestedProvisioning(.init(.station(Self.station)))
        #expect(actions == [.write([UInt8](hex: "08 08 01 01 01")), .wait(for: .acknowledgement)])
        #expect(
            client.receivedNotification([UInt8](hex: "00 04 01 01 07")) == [
                .fail(.unexpectedAcknowledgement(expected: 1, received: 7))
            ])
    }

    @Test func plainStationProvisioningWritesTheSpecFrames() throws {
        var client = readyPlainClient()
        _ = try client.requestedProvisioning(.init(.station(Self.station)))
        let actions = client.receivedNotification([UInt8](hex: "00 04 01 01 01"))
        #expect(
            actions == [
                .report(.operationModeAcknowledged(.station)),
                .write([UInt8](hex: "09 00 02 06") + Array("myssid".utf8)),
                .write([UInt8](hex: "0d 00 03 0d") + Array("mypassword123".utf8)),
                .report(.stationConfigurationSent),
                .write([UInt8](hex: "0c 00 04 00")),
                .report(.connectionRequested),
                .wait(for: .wifiConnection),
            ])
    }

    @Test func requestsDuringAWaitOrBeforeConnectingAreMisuse() throws {
        var client = BluFiClient(random: SeededRandomSource(seed: [4]))
        #expect(throws: BluFiError.notConnected) { try client.requestedWiFiStatus() }
        #expect(throws: BluFiError.notConnected) { try client.requestedDisconnect() }
        _ = client.connected(mtu: nil)
        #expect(throws: BluFiError.busy(.version)) { try client.requestedProvisioning(.init(.station(Self.station))) }
        #expect(throws: BluFiError.busy(.version)) { try client.requestedCustomData([1]) }
        #expect(client.awaitedReply == .version)
    }

    @Test(arguments: [
        (BluFiProvisioningRequest(.station(.init(ssid: [], password: []))), BluFiError.invalidSSID(byteCount: 0)),
        (.init(.station(.init(ssid: [UInt8](repeating: 0x61, count: 33), password: []))), .invalidSSID(byteCount: 33)),
        (
            .init(.station(.init(ssid: [0x61], password: [UInt8](repeating: 0x61, count: 65)))),
            .invalidPassword(byteCount: 65)
        ),
        (.init(.station(.init(ssid: [0x61], password: [], bssid: [1, 2, 3, 4, 5]))), .invalidBSSID(byteCount: 5)),
        (.init(.softAP(.init(ssid: [UInt8](repeating: 0x61, count: 33), password: []))), .invalidSSID(byteCount: 33)),
        (.init(.station(station), customData: [UInt8](repeating: 0, count: 65536)), .messageTooLong(byteCount: 65536)),
    ])
    func invalidRequestsAreRefusedBeforeAnyFrame(request: BluFiProvisioningRequest, error: BluFiError) {
        var client = readyPlainClient()
        #expect(throws: error) { try client.requestedProvisioning(request) }
        #expect(client.isReady)
        #expect(throws: BluFiError.invalidBSSID(byteCount: 7)) {
            try client.requestedStationDeauthentication([[0, 1, 2, 3, 4, 5, 6]])
        }
    }

    @Test func silentVersionFallsBackToV1UnlessOverridden() {
        var automatic = BluFiClient(random: SeededRandomSource(seed: [5]))
        _ = automatic.connected(mtu: 517)
        let actions = automatic.deadlinePassed()
        #expect(actions.prefix(2) == [.report(.versionUnavailable), .report(.negotiationStarted(.v1))])
        #expect(actions.last == .wait(for: .devicePublicKey))
        #expect(automatic.deadlinePassed() == [.fail(.timedOut(.devicePublicKey))])

        var plain = BluFiClient(security: .fixed(.none), random: SeededRandomSource(seed: [5]))
        _ = plain.connected(mtu: 517)
        #expect(plain.deadlinePassed() == [.report(.versionUnavailable), .report(.sessionReady)])
        #expect(plain.deadlinePassed() == [])
    }

    @Test func linkLossMidSessionIsAFailureButNotAfterFinishing() throws {
        var client = BluFiClient(random: SeededRandomSource(seed: [6]))
        _ = client.connected(mtu: 185)
        #expect(client.disconnected() == [.fail(.linkLost)])
        #expect(throws: BluFiError.notConnected) { try client.requestedWiFiStatus() }

        var finishing = readyPlainClient()
        #expect(
            try finishing.requestedDisconnect() == [
                .write([0x20, 0x00, 0x01, 0x00]), .report(.disconnectRequested), .finished,
            ])
        #expect(finishing.disconnected() == [])
    }

    @Test func deviceIDThatIsNotUTF8IsNamed() throws {
        var client = readyPlainClient()
        _ = try client.requestedProvisioning(.init(.station(Self.station), deviceID: .required))
        _ = client.receivedNotification([UInt8](hex: "00 04 01 01 01"))
        let connected = [UInt8](hex: "3d 04 02 03 01 00 00")
        #expect(client.receivedNotification(connected).last == .wait(for: .deviceID))
        #expect(client.deadlinePassed() == [.fail(.timedOut(.deviceID))])

        var garbled = readyPlainClient()
        _ = garbled.receivedNotification([UInt8](hex: "4d 04 01 02 ff fe"))
        _ = try garbled.requestedProvisioning(.init(.station(Self.station), deviceID: .required))
        _ = garbled.receivedNotification([UInt8](hex: "00 04 02 01 01"))
        #expect(
            garbled.receivedNotification([UInt8](hex: "3d 04 03 03 01 00 00")).last
                == .fail(.deviceIDNotUTF8([0xFF, 0xFE])))
    }

    @Test func anOptionalDeviceIDGetsAGraceAndIsNotAnError() throws {
        let connected = [UInt8](hex: "3d 04 02 03 01 00 00")

        var silent = readyPlainClient()
        _ = try silent.requestedProvisioning(.init(.station(Self.station), deviceID: .awaitedBriefly))
        _ = silent.receivedNotification([UInt8](hex: "00 04 01 01 01"))
        #expect(silent.receivedNotification(connected).last == .wait(for: .optionalDeviceID))
        #expect(silent.awaitedReply == .optionalDeviceID)
        let afterGrace = silent.deadlinePassed()
        #expect(afterGrace.first == .report(.deviceIDMissing))
        guard case .report(.provisioned(let result)) = afterGrace.last else {
            Issue.record("no success after the grace: \(afterGrace)")
            return
        }
        #expect(result.deviceID == nil && result.report.stationState == .connected)
        #expect(silent.isReady)

        var late = readyPlainClient()
        _ = try late.requestedProvisioning(.init(.station(Self.station), deviceID: .awaitedBriefly))
        _ = late.receivedNotification([UInt8](hex: "00 04 01 01 01"))
        _ = late.receivedNotification(connected)
        let id = late.receivedNotification([UInt8](hex: "4d 04 03 02 69 64"))
        #expect(id.contains(.report(.deviceIDReceived("id"))))
        guard case .report(.provisioned(let lateResult)) = id.last else {
            Issue.record("no success once the ID came: \(id)")
            return
        }
        #expect(lateResult.deviceID == "id")
    }

    @Test func withoutAnIDWaitSuccessTakesAnIDAlreadySent() throws {
        var client = readyPlainClient()
        _ = client.receivedNotification([UInt8](hex: "4d 04 01 02 69 64"))
        _ = try client.requestedProvisioning(.init(.station(Self.station)))
        _ = client.receivedNotification([UInt8](hex: "00 04 02 01 01"))
        let connected = client.receivedNotification([UInt8](hex: "3d 04 03 03 01 00 00"))
        guard case .report(.provisioned(let result)) = connected.last else {
            Issue.record("no success: \(connected)")
            return
        }
        #expect(result.deviceID == "id")
    }

    @Test func scanFailureLeavesTheSessionUsable() throws {
        var client = readyPlainClient()
        _ = try client.requestedWiFiList()
        #expect(client.receivedNotification([UInt8](hex: "49 04 01 01 0b")) == [.report(.wifiScanFailed)])
        #expect(client.isReady)
        #expect(try client.requestedWiFiList().last == .wait(for: .wifiList))
        #expect(client.receivedNotification([UInt8](hex: "45 04 02 02 05 ff")) == [.fail(.malformedPayload(.wifiList))])
    }

    @Test func errorsSayWhoIsToBlame() {
        #expect(BluFiError.sequenceMismatch(expected: 1, received: 2).isPeerViolation)
        #expect(BluFiError.deviceReportedError(.checksum).isPeerViolation)
        #expect(!BluFiError.timedOut(.version).isPeerViolation && !BluFiError.timedOut(.version).isMisuse)
        #expect(BluFiError.busy(.wifiList).isMisuse && !BluFiError.busy(.wifiList).isPeerViolation)
    }

    /// A client with no security, past GET_VERSION (device sequence 0 used).
    private func readyPlainClient() -> BluFiClient {
        var client = BluFiClient(security: .fixed(.none), random: SeededRandomSource(seed: [7]))
        _ = client.connected(mtu: 517)
        _ = client.receivedNotification(Self.version13)
        return client
    }
}
