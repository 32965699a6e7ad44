import Protocomm
import Testing

/// `prov-scan` through the client API: sorting, paging, the result cap, non-blocking scans.
@Suite struct ScanPagingTests {
    private func pair(_ plan: ProtocommDeviceWiFiPlan = ProtocommDeviceWiFiPlan()) throws -> ProtocommSessionPair {
        var pair = ProtocommSessionPair(
            device: .init(security: .security1(proofOfPossession: ""), wifi: plan), seed: "scan")
        try pair.establish(.security1(proofOfPossession: ""))
        return pair
    }

    private func page(_ pair: inout ProtocommSessionPair, from start: UInt32, count: UInt32) throws
        -> [ProtocommWiFiNetwork]
    {
        guard case .results(let networks) = try pair.scan(.results(startIndex: start, count: count)) else { return [] }
        return networks
    }

    @Test func pagesThroughAllResultsStrongestFirst() throws {
        var pair = try pair()
        #expect(try pair.scan(.start(ProtocommWiFiScanOptions(groupChannels: 5))) == .started)
        #expect(try pair.scan(.status) == .status(finished: true, resultCount: 6))
        let all = try page(&pair, from: 0, count: 4) + page(&pair, from: 4, count: 2)
        #expect(all.count == 6)
        #expect(all.map(\.rssi) == all.map(\.rssi).sorted(by: >))
        #expect(Set(all) == Set(ProtocommDeviceWiFiPlan.sampleNetworks))
        #expect(all.contains { $0.authMode == .wpa3ExtPSK && $0.authMode.rawValue == 11 })
    }

    @Test(arguments: [(UInt32(6), UInt32(1)), (4, 4), (100, 0)])
    func pageBeyondTheListIsAnInternalError(start: UInt32, count: UInt32) throws {
        var pair = try pair()
        _ = try pair.scan(.start(ProtocommWiFiScanOptions()))
        #expect(throws: ProtocommError.failureStatus(.internalError)) {
            try pair.scan(.results(startIndex: start, count: count))
        }
    }

    @Test func keepsAtMostTheConfiguredNumberOfResults() throws {
        var pair = try pair(ProtocommDeviceWiFiPlan(maximumScanResults: 3))
        _ = try pair.scan(.start(ProtocommWiFiScanOptions()))
        #expect(try pair.scan(.status) == .status(finished: true, resultCount: 3))
        #expect(try page(&pair, from: 0, count: 3).map(\.rssi) == [-42, -55, -63])
    }

    @Test func nonBlockingScanFinishesAfterSomePolls() throws {
        var pair = try pair(ProtocommDeviceWiFiPlan(scanStatusPollsBeforeFinished: 2))
        _ = try pair.scan(.start(ProtocommWiFiScanOptions(blocking: false)))
        #expect(try pair.scan(.status) == .status(finished: false, resultCount: 0))
        #expect(throws: ProtocommError.failureStatus(.internalError)) {
            try pair.scan(.results(startIndex: 0, count: 1))
        }
        #expect(try pair.scan(.status) == .status(finished: false, resultCount: 0))
        #expect(try pair.scan(.status) == .status(finished: true, resultCount: 6))
    }
}
