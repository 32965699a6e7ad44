import ArgumentParser
import FoundationEssentials
import Provisioning
import Sockets

/// The hand-off options of the contract, shared by `handoff`, `ble` and `softap`: which cloud server
/// the device joins, the area, and where the device access token comes from.
struct HandoffOptions: ParsableArguments {
    @Option(name: .customLong("area-id"), help: ArgumentHelp("SC area (home) the device joins.", valueName: "id"))
    var areaID: String?

    @OptionGroup(title: "Access token (or --sc-url with a session)")
    var accessToken: SecretOptions<AccessTokenSecret>

    @Option(
        name: .customLong("sc-url"),
        help: ArgumentHelp(
            "Fetch the access token from this SC (such as https://gz.sc.zhitingtech.com).", valueName: "url")
    )
    var scURL: String?

    @OptionGroup(title: "SC session (with --sc-url)")
    var scSession: SecretOptions<SCSessionSecret>

    @Option(
        help: ArgumentHelp(
            "Server the device joins (default: the --sc-url host, else \(LANHandoffRequest.defaultServer)).",
            valueName: "host"
        )
    )
    var server: String?

    @Option(help: ArgumentHelp("Port the device connects to on the server.", valueName: "port"))
    var port: Int = LANHandoffRequest.defaultServerPort

    @Option(help: ArgumentHelp("Also send MQTT settings (for MQTT devices): HOST:PORT.", valueName: "host:port"))
    var mqttServer: String?

    func validate() throws {
        if scURL != nil, accessToken.file != nil || accessToken.environmentVariable != nil {
            throw ValidationError("Give the access token with --access-token-* or fetch it with --sc-url, not both.")
        }
        if scURL == nil, scSession.file != nil || scSession.environmentVariable != nil {
            throw ValidationError("--sc-session-file and --sc-session-env need --sc-url.")
        }
        if !(1...65535).contains(port) {
            throw ValidationError("--port must be between 1 and 65535.")
        }
        if let server, !HostText.isHostName(server) {
            throw ValidationError("--server takes a host name or IPv4 address alone, without scheme or port.")
        }
        if let mqttServer, !HostText.isHostAndPort(mqttServer) {
            throw ValidationError("--mqtt-server takes HOST:PORT, with a port of 1 to 65535.")
        }
        if let areaID, !Self.isAreaID(areaID) {
            throw ValidationError(
                "--area-id takes the SC area's number (1 to 20 digits, at most 18446744073709551615).")
        }
    }

    /// SC area IDs are unsigned 64-bit numbers, written in decimal.
    static func isAreaID(_ text: String) -> Bool {
        text.utf8.count <= 20 && !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } && UInt64(text) != nil
    }

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
