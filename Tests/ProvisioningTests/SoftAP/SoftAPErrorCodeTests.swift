import Provisioning
import Testing

@Suite struct SoftAPErrorCodeTests {
    @Test func codesAreUniqueWellFormedAndListedInTheCatalogue() {
        let spellings = ErrorCode.softAPCatalogue.map(\.rawValue)
        #expect(Set(spellings).count == spellings.count)
        #expect(Set(spellings).isSubset(of: ErrorCode.catalogue.map(\.rawValue)))
        for code in spellings {
            #expect(code.allSatisfy { $0.isLowercase || $0 == "." || $0 == "-" }, "\(code)")
        }
    }

    @Test func contractCodesKeepTheirExitStatus() {
        let expected: [(ErrorCode, String, Provisioning.ExitStatus)] = [
            (.wrongPoP, "softap.wrong-pop", .authenticationFailed),
            (.hotspotPasswordRejected, "nm.no-secrets", .authenticationFailed),
            (.softAPHotspotNotFound, "softap.hotspot-not-found", .deviceNotFound),
            (.softAPJoinFailed, "softap.join-failed", .linkFailure),
            (.softAPEndpointMissing, "softap.endpoint-missing", .linkFailure),
            (.softAPWiFiWrongPassword, "softap.wifi-wrong-password", .wifiJoinFailed),
            (.softAPWiFiNotFound, "softap.wifi-not-found", .wifiJoinFailed),
            (.protocommWiFiJoinFailed, "softap.wifi-join-failed", .wifiJoinFailed),
            (.networkServiceUnavailable, "nm.unavailable", .hostPrecondition),
            (.softAPJoinTimeout, "softap.join-timeout", .timeout),
        ]
        for (code, spelling, status) in expected {
            #expect(code.rawValue == spelling)
            #expect(code.exitStatus == status, "\(code)")
        }
    }
}
