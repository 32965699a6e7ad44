import Testing

@testable import NetworkManager

@Suite struct NMAccessPointSearchTests {
    static let hotspot = Array("ZT_1A2B3C".utf8)
    static let accessPoints = [
        NMAccessPointSummary(ssid: Array("HomeNet".utf8), bssid: "AA:BB:CC:00:00:01", strength: 95),
        NMAccessPointSummary(ssid: hotspot, bssid: "24:0A:C4:1A:2B:3C", strength: 40),
        NMAccessPointSummary(ssid: hotspot, bssid: "24:0A:C4:99:99:99", strength: 70),
    ]

    /// The same access points as NetworkManager 1.2+ lists them, each seen at `lastSeen` (boot-time seconds).
    static func seen(_ lastSeen: [Int32]) -> [NMAccessPointSummary] {
        zip(accessPoints, lastSeen).map { accessPoint, seen in
            var accessPoint = accessPoint
            accessPoint.lastSeen = seen
            return accessPoint
        }
    }

    @Test func picksTheStrongestAccessPointWithTheSSID() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: -1)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: -1, now: 0) == 2)
    }

    @Test func honoursAPinnedBSSIDIgnoringCase() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: "24:0a:c4:1a:2b:3c", lastScan: -1)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: -1, now: 0) == 1)
        let elsewhere = NMAccessPointSearch(ssid: Self.hotspot, bssid: "24:0A:C4:00:00:00", lastScan: -1)
        #expect(elsewhere.bestMatch(in: Self.accessPoints, lastScan: -1, now: 0) == nil)
    }

    /// The hotspot switched off after the scan at 95 s: NetworkManager still lists it, LastScan is recent,
    /// and scans since do not touch its LastSeen. It is never chosen; the one seen again is.
    @Test func trustsOnlyAccessPointsAScanSawSinceTheSearchBegan() {
        let atStart = Self.seen([95, 95, 95])
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 95_500, accessPoints: atStart)
        #expect(search.bestMatch(in: atStart, lastScan: 95_500, now: 96_000) == nil)
        #expect(search.bestMatch(in: Self.seen([99, 95, 95]), lastScan: 99_200, now: 99_300) == nil)
        #expect(search.bestMatch(in: Self.seen([99, 99, 95]), lastScan: 99_200, now: 99_300) == 1)
        #expect(search.bestMatch(in: Self.seen([99, 99, 99]), lastScan: 99_200, now: 99_300) == 2)
    }

    @Test func trustsAnAccessPointThatAppearedSinceTheSearchBegan() {
        let search = NMAccessPointSearch(
            ssid: Self.hotspot, bssid: nil, lastScan: 95_500, accessPoints: Array(Self.seen([95, 95, 95]).prefix(2)))
        #expect(search.bestMatch(in: Self.seen([95, 95, 95]), lastScan: 95_500, now: 96_000) == 2)
    }

    @Test func namesTheStaleEntryItRefusedToTrust() {
        let search = NMAccessPointSearch(
            ssid: Self.hotspot, bssid: nil, lastScan: 95_500, accessPoints: Self.seen([95, 90, 93]))
        #expect(search.staleMatch(in: Self.seen([99, 90, 93]))?.bssid == "24:0A:C4:99:99:99")
        #expect(search.staleMatch(in: Array(Self.seen([99, 90, 93]).prefix(1))) == nil)
        #expect(search.staleMatch(in: Self.accessPoints) == nil)
    }

    /// Generated LastSeen values: an entry is chosen exactly when it was seen after the search began.
    @Test func choosesAnEntryExactlyWhenItsLastSeenMoved() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let before = Int32.random(in: 0...10_000, using: &generator)
            let after = before + Int32.random(in: -3...3, using: &generator)
            let start = [
                NMAccessPointSummary(ssid: Self.hotspot, bssid: "24:0A:C4:1A:2B:3C", strength: 50, lastSeen: before)
            ]
            let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1, accessPoints: start)
            var now = start
            now[0].lastSeen = after
            #expect((search.bestMatch(in: now, lastScan: 2, now: 3) == 0) == (after > before), "\(before) → \(after)")
        }
    }

    @Test func withoutLastSeenTrustsAScanThatFinishedAfterTheSearchBegan() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1_000)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 1_000, now: 100_000) == nil)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 1_001, now: 100_000) == 2)
    }

    @Test func withoutLastSeenTrustsARecentScanAndDevicesThatDoNotReportScans() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 90_000)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 90_000, now: 119_999) == 2)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 90_000, now: 120_000) == nil)
        let unreported = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: -1)
        #expect(unreported.bestMatch(in: Self.accessPoints, lastScan: -1, now: 5) == 2)
    }

    @Test func rescansOnceAfterEachFinishedScan() {
        var search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1_000)
        let answers = [1_000, 2_000, 2_000, 3_000].map { search.shouldRescan(lastScan: $0) }
        #expect(answers == [false, true, false, true])
    }
}
