/// An access point as the joiner chooses among them, copied out of libnm.
struct NMAccessPointSummary: Equatable, Sendable {
    var ssid: [UInt8]
    /// Hardware address as NetworkManager prints it, `24:0A:C4:1A:2B:3C`.
    var bssid: String
    /// Signal quality in percent.
    var strength: UInt8
    /// When a scan last saw it, in `CLOCK_BOOTTIME` seconds; -1 if never or not reported.
    var lastSeen: Int32 = -1
}

/// Finds the hotspot in scan results and decides when an entry can be trusted.
///
/// NetworkManager keeps an access point in its list for minutes after the last scan that saw it (as
/// long as wpa_supplicant keeps the BSS), so a hotspot switched off a few seconds ago is still listed,
/// and a recent `LastScan` proves nothing about it. Activating such an entry takes the host off its
/// network until NetworkManager gives up (`SSID_NOT_FOUND`, tens of seconds later). An entry is
/// trusted only once a scan finished after the search began has seen it: its `LastSeen` moved past
/// the value it had then, or it appeared since. Where NetworkManager reports no `LastSeen`, the rescan
/// rules of `nmcli device wifi list` (NetworkManager's `src/nmcli/devices.c`) decide instead.
struct NMAccessPointSearch {
    /// nmcli rescans when the last scan is older than this.
    static let resultsStayFreshMilliseconds: Int64 = 30_000

    let ssid: [UInt8]
    /// Only this access point counts, when set (compared ignoring case).
    let bssid: String?
    private let lastScanAtStart: Int64
    private var lastScanAtRequest: Int64
    /// `LastSeen` of every listed access point when the search began, by upper-case BSSID.
    private let lastSeenAtStart: [String: Int32]

    /// Starts a search on a device whose last scan finished at `lastScan` (-1: never or unknown) and
    /// which lists `accessPoints` now.
    init(ssid: [UInt8], bssid: String?, lastScan: Int64, accessPoints: [NMAccessPointSummary] = []) {
        self.ssid = ssid
        self.bssid = bssid
        lastScanAtStart = lastScan
        lastScanAtRequest = lastScan
        lastSeenAtStart = Dictionary(
            accessPoints.map { ($0.bssid.uppercased(), $0.lastSeen) }, uniquingKeysWith: { max($0, $1) })
    }

    /// The index of the strongest access point with the SSID (and BSSID, if pinned) that a scan has
    /// shown since the search began.
    func bestMatch(in accessPoints: [NMAccessPointSummary], lastScan: Int64, now: Int64) -> Int? {
        accessPoints.indices
            .filter { matches(accessPoints[$0]) && isCurrent(accessPoints[$0], lastScan: lastScan, now: now) }
            .max { accessPoints[$0].strength < accessPoints[$1].strength }
    }

    /// A listed access point with the SSID that no scan since the search began has seen: the hotspot
    /// went away (switched off, out of range) after an earlier scan.
    func staleMatch(in accessPoints: [NMAccessPointSummary]) -> NMAccessPointSummary? {
        accessPoints.filter { matches($0) && $0.lastSeen >= 0 }.max { $0.lastSeen < $1.lastSeen }
    }

    /// Whether a scan finished since the last request, so another may be requested; records the request.
    mutating func shouldRescan(lastScan: Int64) -> Bool {
        guard lastScan > lastScanAtRequest else { return false }
        lastScanAtRequest = lastScan
        return true
    }

    private func isCurrent(_ accessPoint: NMAccessPointSummary, lastScan: Int64, now: Int64) -> Bool {
        guard accessPoint.lastSeen >= 0 else { return isFresh(lastScan: lastScan, now: now) }
        guard let before = lastSeenAtStart[accessPoint.bssid.uppercased()] else { return true }
        return accessPoint.lastSeen > before
    }

    /// Without `LastSeen`: a scan finished since the search began, the last one is recent, or the
    /// device does not report scan times at all.
    private func isFresh(lastScan: Int64, now: Int64) -> Bool {
        lastScan < 0 || lastScan > lastScanAtStart || now - lastScan < Self.resultsStayFreshMilliseconds
    }

    private func matches(_ accessPoint: NMAccessPointSummary) -> Bool {
        accessPoint.ssid == ssid && (bssid.map { $0.uppercased() == accessPoint.bssid.uppercased() } ?? true)
    }
}
