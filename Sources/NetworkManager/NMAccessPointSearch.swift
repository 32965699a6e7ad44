/// An access point as the joiner chooses among them, copied out of libnm.
struct NMAccessPointSummary: Equatable, Sendable {
    var ssid: [UInt8]
    /// Hardware address as NetworkManager prints it, `24:0A:C4:1A:2B:3C`.
    var bssid: String
    /// Signal quality in percent.
    var strength: UInt8
}

/// Finds the hotspot in scan results and decides when those results are recent enough to trust,
/// following the rescan rules of `nmcli device wifi list` (NetworkManager's `src/nmcli/devices.c`).
struct NMAccessPointSearch {
    /// nmcli rescans when the last scan is older than this.
    static let resultsStayFreshMilliseconds: Int64 = 30_000

    let ssid: [UInt8]
    /// Only this access point counts, when set (compared ignoring case).
    let bssid: String?
    private let lastScanAtStart: Int64
    private var lastScanAtRequest: Int64

    /// Starts a search on a device whose last scan finished at `lastScan` (-1: never or unknown).
    init(ssid: [UInt8], bssid: String?, lastScan: Int64) {
        self.ssid = ssid
        self.bssid = bssid
        lastScanAtStart = lastScan
        lastScanAtRequest = lastScan
    }

    /// The index of the strongest access point with the SSID (and BSSID, if pinned).
    func bestMatch(in accessPoints: [NMAccessPointSummary]) -> Int? {
        accessPoints.indices
            .filter { matches(accessPoints[$0]) }
            .max { accessPoints[$0].strength < accessPoints[$1].strength }
    }

    /// Whether results can be trusted: a scan finished since the search began, the last one is
    /// recent, or the device does not report scan times at all.
    func isFresh(lastScan: Int64, now: Int64) -> Bool {
        lastScan < 0 || lastScan > lastScanAtStart || now - lastScan < Self.resultsStayFreshMilliseconds
    }

    /// Whether a scan finished since the last request, so another may be requested; records the request.
    mutating func shouldRescan(lastScan: Int64) -> Bool {
        guard lastScan > lastScanAtRequest else { return false }
        lastScanAtRequest = lastScan
        return true
    }

    private func matches(_ accessPoint: NMAccessPointSummary) -> Bool {
        accessPoint.ssid == ssid && (bssid.map { $0.uppercased() == accessPoint.bssid.uppercased() } ?? true)
    }
}
