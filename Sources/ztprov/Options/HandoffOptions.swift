import ArgumentParser
import Provisioning

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

    @Option(
        help: ArgumentHelp(
            "Port the device connects to on the server (default: \(LANHandoffRequest.defaultServerPort)).",
            valueName: "port"),
        transform: DecimalInteger.parse)
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
}
