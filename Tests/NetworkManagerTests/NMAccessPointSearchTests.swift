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
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: -1, now: 0)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: -1, now: 0) == 2)
    }

    @Test func honoursAPinnedBSSIDIgnoringCase() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: "24:0a:c4:1a:2b:3c", lastScan: -1, now: 0)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: -1, now: 0) == 1)
        let elsewhere = NMAccessPointSearch(ssid: Self.hotspot, bssid: "24:0A:C4:00:00:00", lastScan: -1, now: 0)
        #expect(elsewhere.bestMatch(in: Self.accessPoints, lastScan: -1, now: 0) == nil)
    }

    /// The hotspot switched off after the scan at 95 s: NetworkManager still lists it, LastScan is recent.
    /// The search began at 100.4 s; an entry counts once a scan heard it in that second or later.
    @Test func trustsOnlyAccessPointsHeardSinceTheSecondTheSearchBegan() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 95_500, now: 100_400)
        #expect(search.bestMatch(in: Self.seen([95, 95, 95]), lastScan: 95_500, now: 100_400) == nil)
        #expect(search.bestMatch(in: Self.seen([101, 99, 95]), lastScan: 101_200, now: 101_300) == nil)
        #expect(search.bestMatch(in: Self.seen([101, 100, 95]), lastScan: 101_200, now: 101_300) == 1)
        #expect(search.bestMatch(in: Self.seen([101, 101, 102]), lastScan: 102_200, now: 102_300) == 2)
    }

    /// A scan under way when the search began finishes after it and reports the hotspot it heard before
    /// the hotspot went away; later scans report it again from the kernel's cache, NetworkManager's
    /// whole-second rounding moving its LastSeen up by one. Neither makes it current.
    @Test func aReportOfWhatWasHeardBeforeTheSearchDoesNotCount() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 60_000, now: 100_400)
        #expect(search.bestMatch(in: Self.seen([101, 60, 97]), lastScan: 100_900, now: 101_000) == nil)
        #expect(search.bestMatch(in: Self.seen([101, 60, 98]), lastScan: 109_000, now: 109_100) == nil)
        let appeared = Array(Self.seen([101, 60, 98]).prefix(1)) + [Self.seen([0, 0, 98])[2]]
        #expect(search.bestMatch(in: appeared, lastScan: 109_000, now: 109_100) == nil)
    }

    @Test func namesTheStaleEntryItRefusedToTrust() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 95_500, now: 96_000)
        #expect(search.staleMatch(in: Self.seen([99, 90, 93]))?.bssid == "24:0A:C4:99:99:99")
        #expect(search.staleMatch(in: Array(Self.seen([99, 90, 93]).prefix(1))) == nil)
        #expect(search.staleMatch(in: Self.accessPoints) == nil)
    }

    /// Generated hearings reported as NetworkManager reports them: `LastSeen` is the moment heard plus up to
    /// a second (wpa_supplicant's whole-second `Age`), in whole seconds. An entry heard after the search
    /// began always counts; one heard a second or more before the second it began in never does.
    @Test func countsAHearingAfterTheStartAndNeverOneASecondBeforeIt() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let began = Int64.random(in: 10_000...10_000_000, using: &generator)
            let heard = began + Int64.random(in: -5_000...5_000, using: &generator)
            let rounding = Int64.random(in: 0..<1_000, using: &generator)
            var entry = NMAccessPointSummary(ssid: Self.hotspot, bssid: "24:0A:C4:1A:2B:3C", strength: 50)
            entry.lastSeen = Int32((heard + rounding) / 1000)
            let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1, now: began)
            let chosen = search.bestMatch(in: [entry], lastScan: 2, now: began + 6_000) == 0
            if heard >= began { #expect(chosen, "heard at \(heard), search began at \(began)") }
            if heard + 1_000 <= began / 1000 * 1000 { #expect(!chosen, "heard at \(heard), search began at \(began)") }
            #expect(chosen == (Int64(entry.lastSeen) >= began / 1000), "\(entry.lastSeen) vs \(began)")
        }
    }

    @Test func withoutLastSeenTrustsAScanThatFinishedAfterTheSearchBegan() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1_000, now: 2_000)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 1_000, now: 100_000) == nil)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 1_001, now: 100_000) == 2)
    }

    @Test func withoutLastSeenTrustsARecentScanAndDevicesThatDoNotReportScans() {
        let search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 90_000, now: 95_000)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 90_000, now: 119_999) == 2)
        #expect(search.bestMatch(in: Self.accessPoints, lastScan: 90_000, now: 120_000) == nil)
        let unreported = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: -1, now: 0)
        #expect(unreported.bestMatch(in: Self.accessPoints, lastScan: -1, now: 5) == 2)
    }

    @Test func rescansOnceAfterEachFinishedScan() {
        var search = NMAccessPointSearch(ssid: Self.hotspot, bssid: nil, lastScan: 1_000, now: 1_500)
        let answers = [1_000, 2_000, 2_000, 3_000].map { search.shouldRescan(lastScan: $0) }
        #expect(answers == [false, true, false, true])
    }
}
