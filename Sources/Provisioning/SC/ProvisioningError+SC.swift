import Transports

/// How SC failures read to a person.
extension ProvisioningError {
    static func scTransport(_ error: any Error, endpoint: SCEndpoint) -> ProvisioningError {
        if error is CancellationError { return .interruptedByUser }
        let failure = error as? any TransportFailure
        if failure?.kind == .timedOut {
            return ProvisioningError(
                .scTimeout,
                "SC at \(endpoint.baseURL) did not answer in time.",
                hint: "Check this host's internet connection and try again.",
                detail: failure?.detail
            )
        }
        return ProvisioningError(
            .scUnreachable,
            "Cannot reach SC at \(endpoint.baseURL).",
            hint: "Check --sc-url and this host's internet connection (DNS, proxy, firewall).",
            detail: failure?.detail ?? "\(error)"
        )
    }

    static func scRejected(status: Int?, reason: String?, httpStatus: Int) -> ProvisioningError {
        let why = [reason.flatMap { $0.isEmpty ? nil : $0 }, status.map { "status \($0)" }].compactMap { $0 }
        return ProvisioningError(
            .scTokenRejected,
            "SC refused the access-token request\(why.isEmpty ? "" : " (\(why.joined(separator: ", ")))").",
            hint: "The session has probably expired: log in to SC again and save the new `_session_` cookie "
                + "to the --sc-session-file.",
            detail: "HTTP \(httpStatus)"
        )
    }

    static func scHTTPStatus(_ status: Int, endpoint: SCEndpoint) -> ProvisioningError {
        ProvisioningError(
            .scHTTPError,
            "SC answered HTTP \(status) to the access-token request.",
            hint: "Check --sc-url (it should look like \(SCEndpoint.release.baseURL)); if it is right, retry later.",
            detail: endpoint.accessTokenURL
        )
    }

    static func scUnreadable(_ endpoint: SCEndpoint) -> ProvisioningError {
        ProvisioningError(
            .scBadResponse,
            "SC's answer to the access-token request has no access token.",
            hint: "Check that --sc-url points at SC itself, not at a web page or proxy.",
            detail: endpoint.accessTokenURL
        )
    }
}
