import FoundationEssentials
import JSONWriting
import Provisioning
import Sockets

/// The hand-off request as the options describe it, with the access token read or fetched from SC.
extension HandoffOptions {
    /// The request for `target`: resolves the access token (asking SC when --sc-url is given).
    func request(target: LANTarget, context: CommandContext) async throws(ProvisioningError) -> LANHandoffRequest {
        guard let areaID, !areaID.isEmpty else {
            throw ProvisioningError(.invalidOption, "No area was given.", hint: "Pass --area-id with the SC area ID.")
        }
        let endpoint = try scURL.map { (url) throws(ProvisioningError) in try SCEndpoint(url) }
        let token = try await accessToken(from: endpoint, context: context)
        return LANHandoffRequest(
            target: target,
            server: server ?? endpoint?.host ?? LANHandoffRequest.defaultServer,
            port: port,
            accessToken: token,
            areaID: areaID,
            mqtt: mqttServer.map { LANMQTTSettings(server: $0, password: Secret("")) }
        )
    }

    private func accessToken(from endpoint: SCEndpoint?, context: CommandContext) async throws(ProvisioningError)
        -> Secret
    {
        let environment = ProcessInfo.processInfo.environment
        guard let endpoint else { return try accessToken.require(environment: environment) }
        let session = try SCSession(scSession.require(environment: environment))
        if endpoint.isCleartext {
            context.console.warning(
                "--sc-url is http://, so the SC session cookie crosses the network unencrypted; use https://.")
        }
        context.console.progress("Asking \(endpoint.baseURL) for a device access token")
        let client = SCAccessTokenClient(exchange: SocketHTTPExchange(), endpoint: endpoint, logger: context.logger)
        let token = try await client.fetchAccessToken(session: session)
        context.console.progress("Got an access token" + (token.expiresIn.map { " valid for \($0) s" } ?? ""))
        context.console.event("sc-token", [JSONField("expires_in", .optional(token.expiresIn))])
        return token.token
    }
}
