import BluFi
import DeviceEmulator
import Provisioning
import Testing

/// Every way the BluFi flow fails against the emulated device: the code, the exit status, a message
/// that names the cause, a hint — and never a password.
@Suite struct BluFiProvisionerFailureTests {
    @discardableResult
    func expectFailure(
        _ ble: EmulatedBLE,
        _ settings: WiFiSettings = WiFiSettings(.station(EmulatedBLE.station), expectsDeviceID: true),
        code: ErrorCode,
        status: Provisioning.ExitStatus,
        mentioning phrases: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ProvisioningError? {
        let error = await ble.failure(sourceLocation: sourceLocation) { try await $0.provision(settings) }
        #expect(error?.code == code, sourceLocation: sourceLocation)
        #expect(error?.exitStatus == status, sourceLocation: sourceLocation)
        for phrase in phrases {
            #expect(
                error.map { "\($0.message) \($0.hint)".contains(phrase) } == true, "\(String(describing: error))",
                sourceLocation: sourceLocation)
        }
        #expect(error?.hint.isEmpty == false, sourceLocation: sourceLocation)
        #expect(!ble.leaksSecret(error), sourceLocation: sourceLocation)
        #expect(await ble.link.closure != nil, "the link outlived the flow", sourceLocation: sourceLocation)
        return error
    }

    static func timeouts(_ change: (inout BluFiTimeouts) -> Void) -> BluFiTimeouts {
        var timeouts = EmulatedBLE.timeouts
        change(&timeouts)
        return timeouts
    }

    // MARK: The device's Wi-Fi (7)

    @Test(arguments: [BluFiSecurityScheme.none, .v1, .v2])
    func aWrongPasswordIsFoundByPollingAndNamesTheReason(scheme: BluFiSecurityScheme) async {
        let ble = EmulatedBLE(
            device: EmulatedBLE.device(scheme, outcome: .wrongPassword), mtu: 23,
            security: EmulatedBLE.choice(for: scheme))
        await expectFailure(
            ble, code: .bluFiWiFiWrongPassword, status: .wifiJoinFailed,
            mentioning: "\"\(EmulatedBLE.ssid)\"", "rejected the password", "reason 15", "-67 dBm")
        let polls = await ble.link.writes.filter { $0.first == BluFiFrameType.getWiFiStatus.rawValue }
        #expect(!polls.isEmpty)
        #expect(await ble.link.closure == .byDevice, "the flow did not say goodbye")
    }

    @Test func aMissingNetworkSaysSo() async {
        let ble = EmulatedBLE(device: EmulatedBLE.device(.v1, outcome: .networkNotFound))
        await expectFailure(
            ble, code: .bluFiWiFiNotFound, status: .wifiJoinFailed, mentioning: "could not find", "reason 201",
            "--list-networks")
    }

    @Test func aJoinThatNeverEndsTimesOutAfterReportingConnectingOnce() async {
        // Long enough that a stalled, loaded machine still gets one status poll in before the deadline.
        let timeouts = Self.timeouts { $0.wifiJoin = .seconds(4) }
        let ble = EmulatedBLE(joinDelay: nil, timeouts: timeouts)
        await expectFailure(ble, code: .bluFiWiFiJoinTimeout, status: .timeout, mentioning: "still trying")
        let joining = ble.recorder.progress.compactMap { event -> BluFiStationState? in
            guard case .wifiStatusChanged(let report) = event else { return nil }
            return report.stationState
        }
        #expect(joining == [.connecting])
        let polls = await ble.link.writes.filter { $0.first == BluFiFrameType.getWiFiStatus.rawValue }
        #expect(polls.count >= 1)
    }

    // MARK: The link (5)

    @Test(arguments: [
        BluFiFaultPlan.Trigger.write(3), .firstWrite(of: .staSSID), .firstWrite(of: .getWiFiStatus),
    ])
    func aLostLinkIsALinkFailure(at trigger: BluFiFaultPlan.Trigger) async {
        // The join never completes, so the status poll the last trigger waits for is certain to be sent.
        let ble = EmulatedBLE(joinDelay: nil, faults: BluFiFaultPlan([.loseLink(trigger)]))
        await expectFailure(ble, code: .bleLinkLost, status: .linkFailure, mentioning: "BLE link")
        #expect(await ble.link.closure == .lost)
    }

    @Test func aLostNotificationDesynchronisesTheSession() async {
        // At MTU 23 the device's V1 key arrives in many fragments; losing one skips a sequence number.
        let ble = EmulatedBLE(mtu: 23, faults: BluFiFaultPlan([.dropNotification(4)]))
        await expectFailure(ble, code: .bluFiSequenceMismatch, status: .linkFailure, mentioning: "out of order")
    }

    @Test func aLostVersionAnswerFallsBackToV1AndThenDesynchronises() async {
        let timeouts = Self.timeouts { $0.version = .milliseconds(100) }
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.dropNotification(1)]), timeouts: timeouts)
        await expectFailure(ble, code: .bluFiSequenceMismatch, status: .linkFailure)
        #expect(
            ble.recorder.progress.prefix(3) == [
                .sessionStarted(mtu: 185), .versionUnavailable, .negotiationStarted(.v1),
            ])
    }

    @Test func aDeviceSequenceErrorIsASequenceMismatch() async {
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.reportError(.sequence, .firstWrite(of: .setOperationMode))]))
        await expectFailure(
            ble, code: .bluFiSequenceMismatch, status: .linkFailure, mentioning: "rejected one of our frames")
    }

    @Test(arguments: [BluFiDeviceErrorCode.dataFormat, .messageState, BluFiDeviceErrorCode(rawValue: 42)])
    func aDeviceRejectingAFrameIsAProtocolError(code: BluFiDeviceErrorCode) async {
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.reportError(code, .firstWrite(of: .staSSID))]))
        await expectFailure(ble, code: .bluFiProtocolError, status: .linkFailure, mentioning: "\(code)")
    }

    // MARK: Authentication (6)

    @Test(arguments: [
        BluFiDeviceErrorCode.checksum, .decrypt, .encrypt, .initSecurity, .dhMalloc, .dhParameter, .readParameter,
        .makePublic, .calculateMD5, .calculateSHA256,
    ])
    func aDeviceNegotiationErrorIsAnAuthenticationFailure(code: BluFiDeviceErrorCode) async {
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.reportError(code, .firstWrite(of: .negotiation))]))
        await expectFailure(ble, code: .bluFiNegotiationFailed, status: .authenticationFailed, mentioning: "\(code)")
    }

    @Test(arguments: [(BluFiSecurityScheme.v1, "--security v2"), (.v2, "--security v1")])
    func aRejectedKeyExchangeSuggestsTheOtherScheme(scheme: BluFiSecurityScheme, suggestion: String) async {
        let ble = EmulatedBLE(
            device: EmulatedBLE.device(scheme),
            faults: BluFiFaultPlan([.reportError(.dhParameter, .firstWrite(of: .negotiation))]))
        await expectFailure(
            ble, code: .bluFiNegotiationFailed, status: .authenticationFailed, mentioning: "DH_PARAM_ERROR", suggestion)
    }

    @Test func firmwareWithoutSecuritySuggestsSecurityNone() async {
        var device = EmulatedBLE.device(.v1)
        device.security = .none
        await expectFailure(
            EmulatedBLE(device: device), code: .bluFiNegotiationFailed, status: .authenticationFailed,
            mentioning: "INIT_SECURITY_ERROR", "--security none")
    }

    @Test func aVersion14DeviceThatKeptV1RefusesTheV2KeyExchange() async {
        // Automatic security picks V2 from the version; the V1 callbacks refuse the 3072-bit prime.
        var device = EmulatedBLE.device(.v1)
        device.version = BluFiVersion(major: 1, minor: 4)
        await expectFailure(
            EmulatedBLE(device: device), code: .bluFiNegotiationFailed, status: .authenticationFailed,
            mentioning: "--security v1")
    }

    // MARK: Timeouts (9)

    @Test func aSilentKeyExchangeTimesOut() async {
        let timeouts = Self.timeouts { $0.keyExchange = .milliseconds(100) }
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.fallSilent(.firstWrite(of: .negotiation))]), timeouts: timeouts)
        await expectFailure(ble, code: .timeout, status: .timeout, mentioning: "V1 key exchange", "--security v1")
    }

    @Test func aMissingAcknowledgementTimesOut() async {
        // Every acknowledged write before the silent one waits under this limit too: room for a loaded machine.
        let timeouts = Self.timeouts { $0.acknowledgement = .seconds(1) }
        let ble = EmulatedBLE(
            faults: BluFiFaultPlan([.fallSilent(.firstWrite(of: .setOperationMode))]), timeouts: timeouts)
        await expectFailure(ble, code: .timeout, status: .timeout, mentioning: "acknowledge the Wi-Fi mode")
    }

    @Test func aDeviceThatSendsNoIDTimesOutAfterJoining() async {
        let timeouts = Self.timeouts { $0.deviceID = .milliseconds(100) }
        let ble = EmulatedBLE(device: EmulatedBLE.device(.v1, deviceID: nil), timeouts: timeouts)
        await expectFailure(ble, code: .timeout, status: .timeout, mentioning: "did not send its device ID", "handoff")
    }

    @Test func theOverallDeadlineEndsTheFlow() async {
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.fallSilent(.firstWrite(of: .negotiation))]))
        let error = await ble.failure {
            try await $0.provision(
                WiFiSettings(.station(EmulatedBLE.station), expectsDeviceID: true), within: .seconds(1))
        }
        #expect(error?.code == .timeout)
        #expect(error?.message.contains("before the overall time limit") == true)
    }

    // MARK: Usage (2)

    @Test func anOverlongSSIDIsAUsageError() async {
        let station = WiFiStationSettings(
            ssid: String(repeating: "x", count: 33), password: Secret(EmulatedBLE.password))
        await expectFailure(
            EmulatedBLE(), WiFiSettings(.station(station), expectsDeviceID: false), code: .invalidOption,
            status: .usage, mentioning: "33")
    }

    @Test func aScanTheDeviceCannotStartIsReported() async {
        let ble = EmulatedBLE(faults: BluFiFaultPlan([.reportError(.wifiScan, .firstWrite(of: .getWiFiList))]))
        let error = await ble.failure { try await $0.listNetworks() }
        #expect(error?.code == .bluFiWiFiScanFailed)
        #expect(error?.exitStatus == .wifiJoinFailed)
    }
}
