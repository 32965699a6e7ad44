import Records
import Testing

/// What each negotiated security is worth, and its stored spelling.
@Suite struct ProvisioningSecurityTests {
    static let all = ProvisioningSecurity.Scheme.allCases.flatMap { scheme in
        [false, true].map { ProvisioningSecurity(scheme, linkEncrypted: $0) }
    }

    @Test(arguments: all)
    func theLevelFollowsEncryptionAndProof(security: ProvisioningSecurity) {
        let expected: SecurityLevel =
            switch (security.scheme, security.linkEncrypted) {
            case (.bluFiNone, false), (.protocomm0, false), (.improv, false), (.improvAuthorized, false): .none
            case (.protocomm1WithPoP, _), (.protocomm2, _), (.improvAuthorized, true): .authenticated
            default: .encrypted
            }
        #expect(security.level == expected)
    }

    @Test(arguments: all)
    func theTextReadsBackAsTheSameSecurity(security: ProvisioningSecurity) {
        #expect(ProvisioningSecurity(text: security.text) == security)
    }

    @Test func unknownTextReadsAsNothing() {
        for text in ["", "v2", "sec1", "blufi-v3", "+encrypted-link", "blufi-v2+encrypted-link+encrypted-link"] {
            #expect(ProvisioningSecurity(text: text) == nil, "\(text)")
        }
    }

    @Test func levelsAreOrderedWeakestFirst() {
        #expect(SecurityLevel.allCases.sorted() == [.none, .encrypted, .authenticated])
    }
}
