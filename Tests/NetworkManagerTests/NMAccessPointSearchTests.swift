import Testing

@testable import NetworkManager

@Suite struct NMAccessPointSearchTests {
    static let hotspot = Array("ZT_1A2B3C".utf8)
    static let accessPoints = [
        NMAccessPointSummary(ssid: Array("HomeNet".utf8), bssid: "AA:BB:CC:00:00:01", strength: 95),
        NMAccessPointSummary(ssid: hotspot, bssid: "24:0A:C4:1A:2B:3C", strength: 40),
        NMAccessPointSummary(ssid: hotspot, bssid: "24:0A:C4:99:99:99", strength: 70),
    ]

    @Test func picksTheStrongestAccessPointWithTheSSID() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: -1)
        #expect(search.bestMatch(in: Self.accessPoints) == 2)
    }

    @Test func honoursAPinnedBSSIDIgnoringCase() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: "24:0a:c4:1a:2b:3c", lastScan: -1)
        #expect(search.bestMatch(in: Self.accessPoints) == 1)
        let elsewhere = NMAccessPointSearch(ssid: Self.hotspot, bssid: "24:0A:C4:00:00:00", lastScan: -1)
        #expect(elsewhere.bestMatch(in: Self.accessPoints) == nil)
    }

    @Test func trustsResultsFromAScanThatFinishedAfterTheSearchBegan() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1_000)
        #expect(!search.isFresh(lastScan: 1_000, now: 100_000))
        #expect(search.isFresh(lastScan: 1_001, now: 100_000))
    }

    @Test func trustsARecentScanAndDevicesThatDoNotReportScans() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 90_000)
        #expect(search.isFresh(lastScan: 90_000, now: 119_999))
        #expect(!search.isFresh(lastScan: 90_000, now: 120_000))
        #expect(NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: -1).isFresh(lastScan: -1, now: 5))
    }

    @Test func rescansOnceAfterEachFinishedScan() {
        var search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1_000)
        let answers = [1_000, 2_000, 2_000, 3_000].map { search.shouldRescan(lastScan: $0) }
        #expect(answers == [false, true, false, true])
    }
}
