import Logging

/// The network a device is sent to join, as far as a scan can judge it: the name, whether a password goes
/// with it, the access point pinned, and whether the network hides its name (`--hidden`).
public struct NetworkJoin: Sendable, Equatable {
    public var ssid: String
    public var passwordGiven: Bool
    public var bssid: [UInt8]?
    /// The network does not broadcast its name, so a scan that misses it proves nothing.
    public var hidden: Bool

    public init(ssid: String, passwordGiven: Bool, bssid: [UInt8]? = nil, hidden: Bool = false) {
        self.ssid = ssid
        self.passwordGiven = passwordGiven
        self.bssid = bssid
        self.hidden = hidden
    }

    /// What `heard` says about this join.
    public func explanation(from heard: [HeardNetwork]) -> JoinExplanation {
        JoinExplanation(ssid: ssid, passwordGiven: passwordGiven, bssid: bssid, heard: heard)
    }

    /// `--check-network`'s rule, before anything is sent: refuses a network the scan does not list (unless
    /// it hides its name), and a security the password cannot meet.
    public func check(_ heard: [HeardNetwork]) throws(ProvisioningError) {
        let explanation = explanation(from: heard)
        let code: ErrorCode
        switch explanation {
        case .notHeard where !hidden: code = .networkNotHeard
        case .heardOpen: code = .networkIsOpen
        case .heardSecured: code = .networkPasswordRequired
        case .heardEnterprise: code = .networkEnterprise
        case .notHeard, .heardWeakly, .heardWell: return
        }
        var refusal = ProvisioningError(
            code, explanation.sentence(quotedSSID, hidden: hidden) + " Nothing was sent.",
            hint: explanation.hint(hidden: hidden) ?? code.hint)
        refusal.heardNetworks = heard
        throw refusal
    }

    /// `failure`, a failed or silent join of this network, with what `heard` (the device's scan after it)
    /// says about it; the code stays the failure's own.
    public func explain(_ failure: ProvisioningError, by heard: [HeardNetwork]) -> ProvisioningError {
        let explanation = explanation(from: heard)
        var explained = ProvisioningError(
            failure.code, failure.message + " " + explanation.sentence(quotedSSID, hidden: hidden),
            hint: explanation.hint(hidden: hidden) ?? failure.hint, detail: failure.detail)
        explained.heardNetworks = heard
        return explained
    }

    /// `failure` explained by what `scan` (the device's scan after the join) returns; a scan that fails, or
    /// returns nothing to judge by, leaves `failure` as it is. Cancellation still ends the run.
    func explain(
        _ failure: ProvisioningError, logger: Logger? = nil, scanning scan: () async throws -> [HeardNetwork]?
    ) async throws -> ProvisioningError {
        logger?.debug("asking the device which networks it hears, to explain the failed join")
        do {
            guard let heard = try await scan() else { return failure }
            return explain(failure, by: heard)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger?.debug("the device's scan after the failed join failed too: \(error)")
            return failure
        }
    }

    private var quotedSSID: String { "\"\(ssid)\"" }
}
