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

    /// What the host's own cached scan (its Wi-Fi, not the device's) says before anything is sent: a refusal
    /// where the join certainly fails (an 802.1X network), warnings where it may (heard only on 5 or 6 GHz,
    /// WPA3 only). Nothing when the host does not hear the network at all: it may stand elsewhere.
    public func hostAdvice(_ heard: [HeardNetwork]) throws(ProvisioningError) -> [NetworkWarning] {
        let matching = heard.filter { $0.isNetwork(ssid, bssid: bssid) }
        guard !matching.isEmpty else { return [] }
        if matching.allSatisfy({ $0.security == .enterprise }) {
            var refusal = ProvisioningError(
                .networkEnterprise,
                "This host hears \(quotedSSID) as an enterprise (802.1X) network, which takes more than a password. "
                    + "Nothing was sent.",
                hint: JoinExplanation.heardEnterprise.hint(hidden: hidden) ?? ErrorCode.networkEnterprise.hint)
            refusal.heardNetworks = matching
            throw refusal
        }
        var warnings: [NetworkWarning] = []
        let bands = Set(matching.compactMap(\.band))
        if !bands.isEmpty, !bands.contains(.ghz2_4) {
            warnings.append(
                NetworkWarning(
                    code: .outside2_4GHz,
                    message: "This host hears \(quotedSSID) only on "
                        + bands.map(\.rawValue).sorted().joined(separator: " and ")
                        + "; every ESP32 but the ESP32-C5 joins 2.4 GHz networks only."))
        }
        if matching.allSatisfy(\.wpa3Only) {
            warnings.append(
                NetworkWarning(
                    code: .wpa3Only,
                    message: "This host hears \(quotedSSID) as WPA3-only (SAE); "
                        + "a device whose firmware supports only WPA2 cannot join it."))
        }
        return warnings
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
