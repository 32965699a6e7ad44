import Foundation
import Records
import TestSupport
import Testing

/// The security audit of a report: what each provisioned unit ran, and which units it flags.
@Suite struct SecurityMixTests {
    @Test func theShiftsMixCountsProvisionedUnitsBySecurityAndFlagsTheWeakOnes() {
        let mix = SecurityMix(ShiftRecords.records())
        #expect(mix.rows.map { $0.security?.text } == ["blufi-none", "blufi-v2", "blufi-v2+encrypted-link"])
        #expect(mix.rows.map(\.units) == [8, 7, 6])
        #expect(mix.plaintext.map(\.deviceKey) == ["a0", "a1", "a2", "a3", "a5", "a6", "a8", "a9"])
        #expect(mix.withoutProof.count == 13)
        #expect(mix.withoutProof.allSatisfy { $0.security.level == .encrypted })
    }

    /// Failed units are not in the mix, units recorded before the security was kept are counted apart and
    /// flagged neither way, and an authenticated unit is never flagged.
    @Test func onlyProvisionedUnitsCountAndUnrecordedOnesAreNeitherFlaggedNorCleared() {
        let start = ShiftRecords.start
        func record(_ key: String, _ security: ProvisioningSecurity?, code: String = "ok") -> ProvisioningRecord {
            ProvisioningRecord(
                batchID: "b", station: "line-1", adapter: "hci0", deviceKey: key, path: .ble, attempt: 1,
                isFinal: true, code: code, startedAt: start, finishedAt: start + 1, securedWith: security)
        }
        let mix = SecurityMix([
            record("old", nil), record("sec0", ProvisioningSecurity(.protocomm0)),
            record("failed", ProvisioningSecurity(.bluFiNone), code: "ble.link-lost"),
            record("pop", ProvisioningSecurity(.protocomm1WithPoP)), record("sec2", ProvisioningSecurity(.protocomm2)),
            record("no-pop", ProvisioningSecurity(.protocomm1)),
        ])
        #expect(mix.rows.reduce(0) { $0 + $1.units } == 5)
        #expect(mix.rows.contains { $0.security == nil && $0.units == 1 })
        #expect(mix.plaintext.map(\.deviceKey) == ["sec0"])
        #expect(mix.withoutProof.map(\.deviceKey) == ["no-pop"])
    }
}
