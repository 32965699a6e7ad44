import Provisioning
import Testing

@Suite struct SecretTests {
    private let secret = Secret("hunter2-wifi-pass")

    @Test func neverPrintsItsValue() {
        var dumped = ""
        dump(secret, to: &dumped)
        let renderings = [
            "\(secret)", String(describing: secret), String(reflecting: secret), dumped,
            "\([secret])", "\(Optional(secret) as Any)",
        ]
        for text in renderings {
            #expect(!text.contains("hunter2"), "leaked in: \(text)")
            #expect(text.contains("redacted"))
        }
    }

    @Test func revealsOnlyOnRequest() {
        #expect(secret.revealed() == "hunter2-wifi-pass")
        #expect(!secret.isEmpty)
        #expect(Secret("").isEmpty)
    }
}
