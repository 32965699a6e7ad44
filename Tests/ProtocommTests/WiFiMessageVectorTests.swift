import Protocomm
import TestSupport
import Testing

/// Plaintext Wi-Fi messages as ESP-IDF's wifi_provisioning `.proto` files encode them, both directions
/// (RespGetStatus Connecting and RespApplyConfig Success also show in the device logs of esp-idf#6861).
@Suite struct WiFiMessageVectorTests {
    struct Example<Value: Sendable>: Sendable, CustomTestStringConvertible {
        let value: Value
        let hex: String
        let testDescription: String
    }

    static let credentials = try! ProtocommWiFiCredentials(ssid: "myssid", passphrase: "mypassword")

    static let configRequests: [Example<ProtocommWiFiConfigRequest>] = [
        Example(value: .getStatus, hex: "5200", testDescription: "CmdGetStatus"),
        Example(
            value: .setConfig(credentials), hex: "080262140a066d7973736964120a6d7970617373776f7264",
            testDescription: "CmdSetConfig myssid/mypassword"),
        Example(value: .applyConfig, hex: "08047200", testDescription: "CmdApplyConfig"),
    ]

    static let configResponses: [Example<ProtocommWiFiConfigResponse>] = [
        Example(
            value: .status(.connecting(attemptsRemaining: nil)), hex: "08015a021001",
            testDescription: "RespGetStatus Connecting"),
        Example(
            value: .status(.failed(.authenticationError)), hex: "08015a0410035000",
            testDescription: "RespGetStatus ConnectionFailed/AuthError"),
        Example(
            value: .status(
                .connected(
                    ProtocommWiFiConnection(
                        ipAddress: "192.168.1.50", authMode: .wpa2PSK, ssid: Array("myssid".utf8),
                        bssid: [0x11, 0x22, 0x33, 0x44, 0x55, 0x66], channel: 6))),
            hex: "08015a245a220a0c3139322e3136382e312e353010031a066d797373696422061122334455662806",
            testDescription: "RespGetStatus Connected"),
        Example(value: .configSet, hex: "08036a00", testDescription: "RespSetConfig Success"),
        Example(value: .configApplied, hex: "08057a00", testDescription: "RespApplyConfig Success"),
    ]

    static let scanRequests: [Example<ProtocommWiFiScanRequest>] = [
        Example(
            value: .start(ProtocommWiFiScanOptions(blocking: true, groupChannels: 5, periodMilliseconds: 120)),
            hex: "5206080118052078", testDescription: "CmdScanStart blocking, group 5, 120 ms"),
        Example(value: .status, hex: "08026200", testDescription: "CmdScanStatus"),
        Example(value: .results(startIndex: 0, count: 4), hex: "080472021004", testDescription: "CmdScanResult (0, 4)"),
    ]

    @Test(arguments: configRequests)
    func configRequestMatchesTheSpec(_ example: Example<ProtocommWiFiConfigRequest>) throws {
        #expect(example.value.serializedBytes().hexString == example.hex)
        #expect(try ProtocommWiFiConfigRequest(serializedBytes: [UInt8](hex: example.hex)) == example.value)
    }

    @Test(arguments: configResponses)
    func configResponseMatchesTheSpec(_ example: Example<ProtocommWiFiConfigResponse>) throws {
        #expect(example.value.serializedBytes().hexString == example.hex)
        #expect(try ProtocommWiFiConfigResponse(serializedBytes: [UInt8](hex: example.hex)) == example.value)
    }

    @Test(arguments: scanRequests)
    func scanRequestMatchesTheSpec(_ example: Example<ProtocommWiFiScanRequest>) throws {
        #expect(example.value.serializedBytes().hexString == example.hex)
        #expect(try ProtocommWiFiScanRequest(serializedBytes: [UInt8](hex: example.hex)) == example.value)
    }

    @Test func controlResetMatchesTheSpecWithAndWithoutTheOneof() throws {
        #expect(ProtocommWiFiControlRequest.reset.serializedBytes().hexString == "08015a00")
        #expect(try ProtocommWiFiControlRequest(serializedBytes: [0x08, 0x01]) == .reset, "esp_prov omits the oneof")
        #expect(
            try ProtocommWiFiControlRequest(serializedBytes: ProtocommWiFiControlRequest.reprovision.serializedBytes())
                == .reprovision)
    }

    @Test func applyWithoutTheOneofIsStillApply() throws {
        #expect(try ProtocommWiFiConfigRequest(serializedBytes: [0x08, 0x04]) == .applyConfig)
    }

    @Test func setConfigWithoutItsFieldsIsRefused() {
        #expect(
            throws: ProtocommError.unexpectedMessage(
                expected: "CmdSetConfig", received: "WiFiConfigPayload without CmdSetConfig")
        ) {
            try ProtocommWiFiConfigRequest(serializedBytes: [0x08, 0x02])
        }
    }
}
