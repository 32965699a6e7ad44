import BluFi
import CryptoPrimitives
import Testing

@testable import Provisioning

/// The table from every ``BluFiError`` to a stable code and exit status, including the failures the
/// emulated device cannot produce (a corrupted checksum, a malformed frame, misuse of the core).
@Suite struct BluFiErrorMappingTests {
    static let context = BluFiFailureContext(
        scheme: .v1, ssid: "Zhiting-Home", waited: .milliseconds(1500), activity: "waiting for the device's key")

    static func report(_ reason: BluFiConnectionEndReason?) -> BluFiWiFiReport {
        var report = BluFiWiFiReport(operationMode: .station, stationState: .disconnected)
        report.endReason = reason
        report.rssi = -70
        return report
    }

    static let table: [(BluFiError, ErrorCode)] = [
        (.truncatedFrame(byteCount: 2), .bluFiProtocolError),
        (.frameLengthMismatch(expected: 8, received: 9), .bluFiProtocolError),
        (.sequenceMismatch(expected: 3, received: 5), .bluFiSequenceMismatch),
        (.encryptedBeforeNegotiation, .bluFiNegotiationFailed),
        (.checksumMismatch(computed: 1, received: 2), .bluFiNegotiationFailed),
        (.fragmentWithoutLengthPrefix, .bluFiProtocolError),
        (.fragmentDeclaresZeroLength, .bluFiProtocolError),
        (.fragmentLengthMismatch(declared: 10, assembled: 12), .bluFiProtocolError),
        (.fragmentRestarted, .bluFiProtocolError),
        (.unknownFrameType(BluFiFrameType(rawValue: 0xFD)), .bluFiProtocolError),
        (.unexpectedFrame(.wifiList), .bluFiProtocolError),
        (.malformedPayload(.wifiReport), .bluFiProtocolError),
        (.invalidPublicKey, .bluFiNegotiationFailed),
        (.unexpectedAcknowledgement(expected: 5, received: 4), .bluFiProtocolError),
        (.deviceIDNotUTF8([0xFF]), .bluFiProtocolError),
        (.wifiConnectionFailed(report(.fourWayHandshakeTimeout)), .bluFiWiFiWrongPassword),
        (.wifiConnectionFailed(report(.authenticationFailed)), .bluFiWiFiWrongPassword),
        (.wifiConnectionFailed(report(.handshakeTimeout)), .bluFiWiFiWrongPassword),
        (.wifiConnectionFailed(report(.noAPFound)), .bluFiWiFiNotFound),
        (.wifiConnectionFailed(report(.noAPWithCompatibleSecurity)), .bluFiWiFiNotFound),
        (.wifiConnectionFailed(report(.noAPInRSSIThreshold)), .bluFiWiFiNotFound),
        (.wifiConnectionFailed(report(.associationFailed)), .bluFiWiFiJoinFailed),
        (.wifiConnectionFailed(report(BluFiConnectionEndReason(rawValue: 99))), .bluFiWiFiJoinFailed),
        (.wifiConnectionFailed(report(nil)), .bluFiWiFiJoinFailed),
        (.timedOut(.wifiConnection), .bluFiWiFiJoinTimeout),
        (.timedOut(.version), .timeout),
        (.timedOut(.devicePublicKey), .timeout),
        (.timedOut(.acknowledgement), .timeout),
        (.timedOut(.softAPStatus), .timeout),
        (.timedOut(.wifiStatus), .timeout),
        (.timedOut(.wifiList), .timeout),
        (.timedOut(.deviceID), .timeout),
        (.linkLost, .bleLinkLost),
        (.cryptoFailed(.library("EVP_CIPHER_CTX_new")), .bluFiNegotiationFailed),
        (.notConnected, .bleLinkLost),
        (.busy(.version), .bluFiProtocolError),
        (.sessionEnded, .bluFiProtocolError),
        (.invalidSSID(byteCount: 33), .invalidOption),
        (.invalidPassword(byteCount: 65), .invalidOption),
        (.invalidBSSID(byteCount: 5), .invalidOption),
        (.messageTooLong(byteCount: 70_000), .bluFiProtocolError),
        (.encryptionUnavailable, .bluFiProtocolError),
    ]

    @Test(arguments: table)
    func everyClientErrorHasACodeAndAHint(error: BluFiError, code: ErrorCode) {
        let mapped = ProvisioningError.bluFi(error, Self.context)
        #expect(mapped.code == code)
        #expect(mapped.exitStatus == code.exitStatus)
        #expect(!mapped.message.isEmpty && mapped.message.hasSuffix("."))
        #expect(!mapped.hint.isEmpty)
    }

    @Test(arguments: 0...14)
    func everyDeviceErrorCodeHasACode(raw: UInt8) {
        let code = BluFiDeviceErrorCode(rawValue: raw)
        let expected: ErrorCode =
            switch code {
            case .sequence: .bluFiSequenceMismatch
            case .dataFormat, .messageState: .bluFiProtocolError
            case .wifiScan: .bluFiWiFiScanFailed
            case BluFiDeviceErrorCode(rawValue: 14): .bluFiProtocolError
            default: .bluFiNegotiationFailed
            }
        let mapped = ProvisioningError.bluFi(.deviceReportedError(code), Self.context)
        #expect(mapped.code == expected)
        #expect(mapped.message.contains("\(code)"))
    }

    @Test func theJoinFailureCarriesTheDevicesReason() {
        let mapped = ProvisioningError.bluFi(.wifiConnectionFailed(Self.report(.noAPFound)), Self.context)
        #expect(
            mapped.message
                == "The device could not find \"Zhiting-Home\" (no access point with that name answered, reason 201, signal -70 dBm)."
        )
    }

    @Test func theTimeoutSaysHowLongItWaited() {
        let mapped = ProvisioningError.bluFi(.timedOut(.devicePublicKey), Self.context)
        #expect(mapped.message == "The device did not answer the V1 key exchange within 1.5 s.")
    }
}
