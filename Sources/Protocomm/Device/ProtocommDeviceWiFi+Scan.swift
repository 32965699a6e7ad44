/// The `prov-scan` handler: a scan "finds" the plan's networks, strongest first, capped like the
/// firmware's result list, and hands them out in pages.
extension ProtocommDeviceWiFi {
    /// Handles a `prov-scan` request.
    public mutating func receivedScanRequest(_ plaintext: [UInt8]) throws(ProtocommError) -> [UInt8] {
        switch try ProtocommWiFiScanRequest(serializedBytes: plaintext) {
        case .start(let options):
            startScan(options)
            return ProtocommWiFiScanResponse.started.serializedBytes()
        case .status:
            let finished = pollScan()
            return ProtocommWiFiScanResponse.status(
                finished: finished, resultCount: finished ? UInt32(results.count) : 0
            )
            .serializedBytes()
        case .results(let startIndex, let count):
            let start = Int(startIndex)
            let end = start + Int(count)
            guard isScanFinished, end <= results.count else {
                return ProtocommWiFiScanResponse.results([]).wirePayload(status: .internalError).wireBytes
            }
            return ProtocommWiFiScanResponse.results(Array(results[start..<end])).serializedBytes()
        }
    }

    private mutating func startScan(_ options: ProtocommWiFiScanOptions) {
        // A start while a scan runs is a no-op success on the real device.
        if case .running = scan { return }
        let found = Array(plan.networks.sorted { $0.rssi > $1.rssi }.prefix(plan.maximumScanResults))
        let polls = options.blocking ? 0 : plan.scanStatusPollsBeforeFinished
        scan = polls > 0 ? .running(pollsLeft: polls, results: found) : .finished(found)
    }

    /// Answers "finished?" and moves a running scan one poll closer to done.
    private mutating func pollScan() -> Bool {
        switch scan {
        case .idle, .finished:
            return true
        case .running(let pollsLeft, let found):
            scan = pollsLeft > 1 ? .running(pollsLeft: pollsLeft - 1, results: found) : .finished(found)
            return false
        }
    }

    private var isScanFinished: Bool {
        if case .running = scan { return false }
        return true
    }

    private var results: [ProtocommWiFiNetwork] {
        switch scan {
        case .idle: []
        case .running(_, let found), .finished(let found): found
        }
    }
}
