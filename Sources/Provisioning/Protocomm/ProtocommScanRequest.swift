import Protocomm

/// A `prov-scan` request family: Wi-Fi and Thread scans take the same steps (start, status polls,
/// results fetched page by page) with different messages, so one paging loop serves both.
protocol ProtocommScanRequest: ProtocommSessionRequest where Response: ProtocommScanResponse {
    static var status: Self { get }
    static func results(startIndex: UInt32, count: UInt32) -> Self
}

/// A `prov-scan` reply: a status with the number of results kept, a page of results, or neither.
protocol ProtocommScanResponse {
    associatedtype Network

    /// Whether the scan finished and how many results it kept, when this reply is a status.
    var scanStatus: (finished: Bool, resultCount: UInt32)? { get }
    /// The networks on this page, when this reply is a page of results.
    var networks: [Network]? { get }
}

extension ProtocommWiFiScanRequest: ProtocommScanRequest {}
extension ProtocommThreadScanRequest: ProtocommScanRequest {}

extension ProtocommWiFiScanResponse: ProtocommScanResponse {
    var scanStatus: (finished: Bool, resultCount: UInt32)? {
        if case .status(let finished, let resultCount) = self { (finished, resultCount) } else { nil }
    }

    var networks: [ProtocommWiFiNetwork]? {
        if case .results(let entries) = self { entries } else { nil }
    }
}

extension ProtocommThreadScanResponse: ProtocommScanResponse {
    var scanStatus: (finished: Bool, resultCount: UInt32)? {
        if case .status(let finished, let resultCount) = self { (finished, resultCount) } else { nil }
    }

    var networks: [ProtocommThreadNetwork]? {
        if case .results(let entries) = self { entries } else { nil }
    }
}
