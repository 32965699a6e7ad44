import Protocomm
import Provisioning
import TestSupport
import Testing

/// Espressif's provisioning QR payload: what the apps read, exactly; anything else a usage error that
/// never repeats the PoP.
@Suite struct ESPProvisioningQRPayloadTests {
    @Test func theExamplesPayloadIsRead() throws {
        let payload = try ESPProvisioningQRPayload(
            #"{"ver":"v1","name":"PROV_1A2B3C","pop":"abcd1234","transport":"ble","security":2,"username":"wifiprov","network":"wifi"}"#
        )
        #expect(payload.name == "PROV_1A2B3C")
        #expect(payload.transport == "ble")
        #expect(payload.proofOfPossession?.revealed() == "abcd1234")
        #expect(payload.security == .security2)
        #expect(payload.username == "wifiprov")
        #expect(payload.network == "wifi")
        #expect(!"\(payload)".contains("abcd1234"))
    }

    @Test func securityMayBeADigitStringAndEverythingButTheNameIsOptional() throws {
        let payload = try ESPProvisioningQRPayload(#"{"name":"PROV_X","security":"1","transport":"BLE"}"#)
        #expect(payload.security == .security1)
        #expect(payload.transport == "ble")
        let bare = try ESPProvisioningQRPayload(#"{"name":"PROV_X","pop":""}"#)
        #expect(bare.proofOfPossession == nil && bare.security == nil && bare.transport == nil)
    }

    @Test(
        arguments: [
            "", "[]", "{}", #"{"name":""}"#, #"{"name":7}"#, #"{"name":"x","security":3}"#,
            #"{"name":"x","security":true}"#, #"{"name":"x","security":"two"}"#, #"{"name":"x","transport":"usb"}"#,
            #"{"name":"x","network":"zigbee"}"#, #"{"name":"x","pop":5}"#, "{\"name\":\"x\"", "not json",
            #"{"name":"123456789012345678901234567890123"}"#,
        ])
    func malformedPayloadsAreUsageErrors(text: String) {
        #expect(throws: ProvisioningError.self) { try ESPProvisioningQRPayload(text) }
        do {
            _ = try ESPProvisioningQRPayload(text)
        } catch {
            #expect(error.code == .invalidOption)
            #expect(error.exitStatus == .usage)
        }
    }

    @Test func errorsNeverRepeatThePoP() {
        let secret = "pop-S3CRET-55"
        for text in [
            #"{"name":"","pop":"\#(secret)"}"#, #"{"name":"x","pop":"\#(secret)","security":9}"#,
            #"{"name":"x","pop":"\#(secret)","transport":"usb"}"#,
        ] {
            do {
                _ = try ESPProvisioningQRPayload(text)
                Issue.record("accepted \(text)")
            } catch {
                #expect(!"\(error) \(error.hint) \(error.detail ?? "")".contains(secret))
            }
        }
    }

    @Test func arbitraryTextNeverTraps() {
        var random = SplitMix64(seed: 0x0512)
        let pieces = ["{", "}", "\"name\"", ":", "\"x\"", ",", "\"security\"", "2", "\"pop\"", "[", "]", "null", "1e9"]
        for _ in 0..<2000 {
            let text = (0..<random.below(12)).map { _ in pieces[random.below(pieces.count)] }.joined()
            _ = try? ESPProvisioningQRPayload(text)
        }
        _ = try? ESPProvisioningQRPayload(String(repeating: "{", count: ESPProvisioningQRPayload.maximumLength + 1))
    }
}
