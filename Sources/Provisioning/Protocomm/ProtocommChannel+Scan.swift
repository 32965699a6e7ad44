import Protocomm

extension ProtocommChannel {
    /// Results fetched per `prov-scan` request, as the phone apps do; small bodies suit a busy SoftAP and a small ATT MTU.
    static let scanPageSize: UInt32 = 4

    /// The device's scan list when `wanted`, if the device advertises `capability`; says so through
    /// `progress` when it does not, and when the scan starts.
    mutating func listNetworks<Request: ProtocommScanRequest>(
        wanted: Bool, from info: ProtocommVersionInfo, capability: ProtocommCapability, start: Request,
        statusMessage: String, timeouts: ProtocommTimeouts, security: ProtocommSecurityUsed,
        progress: ProtocommProgressSink
    ) async throws -> [Request.Response.Network]? {
        guard wanted else { return nil }
        guard info.has(capability) else {
            progress(.scanUnavailable)
            return nil
        }
        progress(.scanningNetworks)
        return try await scanNetworks(
            start: start, statusMessage: statusMessage, timeouts: timeouts, phase: .session(security))
    }

    /// Starts a device scan with `start`, polls its status until it finishes within the scan limit, then
    /// fetches every result it kept, ``scanPageSize`` at a time. `statusMessage` names the status reply
    /// in the error when the device answers a status poll with something else.
    mutating func scanNetworks<Request: ProtocommScanRequest>(
        start: Request, statusMessage: String, timeouts: ProtocommTimeouts, phase: ProtocommPhase
    ) async throws -> [Request.Response.Network] {
        let scanDeadline = ContinuousClock.now + timeouts.scan
        _ = try await scan(start, phase: phase, limit: timeouts.scan)
        var resultCount: UInt32
        while true {
            let step = (deadline: scanDeadline, limit: timeouts.scan)
            let reply = try await scan(Request.status, phase: phase, limit: timeouts.exchange, step: step)
            guard let status = reply.scanStatus else {
                throw ProvisioningError.protocommProtocol(
                    .malformedMessage(statusMessage), endpoint: .scan, phase: phase, on: peer)
            }
            resultCount = status.resultCount
            if status.finished { break }
            try await pause(timeouts.statusPollInterval, before: step, endpoint: .scan, phase: phase)
        }
        var networks: [Request.Response.Network] = []
        while networks.count < Int(resultCount) {
            let page = min(Self.scanPageSize, resultCount - UInt32(networks.count))
            let fetch = Request.results(startIndex: UInt32(networks.count), count: page)
            guard let entries = try await scan(fetch, phase: phase, limit: timeouts.exchange).networks,
                !entries.isEmpty
            else { break }
            networks += entries
        }
        return networks
    }

    private mutating func scan<Request: ProtocommScanRequest>(
        _ command: Request, phase: ProtocommPhase, limit: Duration,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil
    ) async throws -> Request.Response {
        try await exchange(command, on: .scan, phase: phase, limit: limit, step: step)
    }
}
