import Protocomm

/// A `prov-scan` request family: Wi-Fi and Thread scans take the same steps (start, status polls,
/// results fetched page by page) with different messages, so one paging loop serves both.
protocol ProtocommScanRequest: ProtocommSessionRequest where Response: ProtocommScanResponse {
    static var status: Self { get }
    static func results(startIndex: UInt32, count: UInt32) -> Self
}

extension ProtocommWiFiScanRequest: ProtocommScanRequest {}
extension ProtocommThreadScanRequest: ProtocommScanRequest {}
