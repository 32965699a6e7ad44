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
/// NetworkManager keeps listing a hotspot switched off seconds ago: the kernel reports every access
/// point it heard within the last 30 s in each scan's results, wpa_supplicant keeps the entry for
/// minutes, and a scan that was already under way when the search began reports what it heard before.
/// Each report recomputes `LastSeen` from wpa_supplicant's whole-second `Age`, so it can move up by a
/// second with nothing heard. Activating such an entry takes the host off its network until
/// NetworkManager gives up (`SSID_NOT_FOUND`, tens of seconds later). So an entry counts only if its
/// `LastSeen` is no earlier than the whole second the search began in: heard after the search asked for
/// its scan, or at most about two seconds before. Where NetworkManager reports no `LastSeen`, the
/// rescan rules of `nmcli device wifi list` (NetworkManager's `src/nmcli/devices.c`) decide instead.
struct NMAccessPointSearch {
    /// nmcli rescans when the last scan is older than this.
    static let resultsStayFreshMilliseconds: Int64 = 30_000

    let ssid: [UInt8]
    /// Only this access point counts, when set (compared ignoring case).
    let bssid: String?
    /// When the search began, in `CLOCK_BOOTTIME` milliseconds.
    let beganAt: Int64
    private let lastScanAtStart: Int64
    private var lastScanAtRequest: Int64

    /// Starts a search at `now` (`CLOCK_BOOTTIME` milliseconds) on a device whose last scan finished at
    /// `lastScan` (-1: never or unknown).
    init(ssid: [UInt8], bssid: String?, lastScan: Int64, now: Int64) {
        self.ssid = ssid
        self.bssid = bssid
        beganAt = now
        lastScanAtStart = lastScan
        lastScanAtRequest = lastScan
    }

    /// The index of the strongest access point with the SSID (and BSSID, if pinned) that a scan heard
    /// since the search began.
    func bestMatch(in accessPoints: [NMAccessPointSummary], lastScan: Int64, now: Int64) -> Int? {
        accessPoints.indices
            .filter { matches(accessPoints[$0]) && isCurrent(accessPoints[$0], lastScan: lastScan, now: now) }
            .max { accessPoints[$0].strength < accessPoints[$1].strength }
    }

    /// A listed access point with the SSID that no scan since the search began has heard: the hotspot
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
        return Int64(accessPoint.lastSeen) >= beganInSecond
    }

    /// The `CLOCK_BOOTTIME` second the search began in; `LastSeen` counts whole seconds.
    var beganInSecond: Int64 { beganAt / 1000 }

    /// Without `LastSeen`: a scan finished since the search began, the last one is recent, or the
    /// device does not report scan times at all.
    private func isFresh(lastScan: Int64, now: Int64) -> Bool {
        lastScan < 0 || lastScan > lastScanAtStart || now - lastScan < Self.resultsStayFreshMilliseconds
    }

    private func matches(_ accessPoint: NMAccessPointSummary) -> Bool {
        accessPoint.ssid == ssid && (bssid.map { $0.uppercased() == accessPoint.bssid.uppercased() } ?? true)
    }
}
