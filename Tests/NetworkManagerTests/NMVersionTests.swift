import Testing

@testable import NetworkManager

@Suite struct NMVersionTests {
    @Test(arguments: [
        ("1.42.4", NMVersion(1, 42, 4)),
        ("1.16", NMVersion(1, 16, 0)),
        ("1.47.2-dev", NMVersion(1, 47, 2)),
        ("0.9.6.0", NMVersion(0, 9, 6)),
    ])
    func parsesReleaseNumbers(text: String, expected: NMVersion) {
        #expect(NMVersion(text) == expected)
    }

    @Test(arguments: ["", "1", "one.two", ".5"])
    func rejectsTextWithoutMajorAndMinor(text: String) {
        #expect(NMVersion(text) == nil)
    }

    @Test func addAndActivate2StartsAt1_16() {
        #expect(!NMVersion(1, 14, 9).hasAddAndActivate2)
        #expect(NMVersion(1, 16, 0).hasAddAndActivate2)
        #expect(!NMVersion(1, 18, 0).hasIPv6MethodDisabled)
        #expect(NMVersion(1, 20, 0).hasIPv6MethodDisabled)
    }
}
