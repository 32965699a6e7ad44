import Protocomm

/// A request sent inside the encrypted session (`prov-config`, `prov-scan`, `prov-ctrl`, Wi-Fi or
/// Thread): plaintext bytes out, a reply parsed and checked against the request.
protocol ProtocommSessionRequest {
    associatedtype Response

    func serializedBytes() -> [UInt8]
    func response(from bytes: [UInt8]) throws(ProtocommError) -> Response
}

extension ProtocommWiFiConfigRequest: ProtocommSessionRequest {}
extension ProtocommThreadConfigRequest: ProtocommSessionRequest {}

extension ProtocommChannel {
    /// Sends `command` encrypted on `endpoint` and parses the reply. A reply that does not parse is a
    /// protocol error, except a failure status when `rejected` says what the device's refusal means.
    mutating func exchange<Request: ProtocommSessionRequest>(
        _ command: Request, on endpoint: ProtocommEndpoint, phase: ProtocommPhase, limit: Duration,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil,
        rejected: ((ProtocommStatus) -> ProvisioningError)? = nil
    ) async throws -> Request.Response {
        let reply = try await exchangeEncrypted(
            command.serializedBytes(), on: endpoint, phase: phase, limit: limit, step: step)
        do {
            return try command.response(from: reply)
        } catch {
            if case .failureStatus(let status) = error, let rejected { throw rejected(status) }
            throw ProvisioningError.protocommProtocol(error, endpoint: endpoint, phase: phase, on: peer)
        }
    }
}
