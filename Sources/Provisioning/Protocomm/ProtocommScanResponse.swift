import Protocomm

/// A `prov-scan` reply: a status with the number of results kept, a page of results, or neither.
protocol ProtocommScanResponse {
    associatedtype Network

    /// Whether the scan finished and how many results it kept, when this reply is a status.
    var scanStatus: (finished: Bool, resultCount: UInt32)? { get }
    /// The networks on this page, when this reply is a page of results.
    var networks: [Network]? { get }
}

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
