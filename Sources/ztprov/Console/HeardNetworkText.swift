import JSONWriting
import Provisioning

/// How the networks a device hears read, whichever protocol reported them: a tab-separated row per access
/// point for people (name, signal, then channel and band, security and BSSID where reported) and a JSON
/// array. Names and security words are the radio's text: rows escape them, JSON encodes them.
enum HeardNetworkText {
    static func row(_ network: HeardNetwork) -> String {
        var columns = [TerminalText.printable(network.name), "\(network.rssi) dBm"]
        if let channel = network.channel {
            columns.append("channel \(channel)" + (network.band.map { " (\($0.rawValue))" } ?? ""))
        }
        if let authentication = network.authentication { columns.append(TerminalText.printable(authentication)) }
        if let bssid = network.bssidText { columns.append(bssid) }
        return columns.joined(separator: "\t")
    }

    /// `"networks": [{"ssid", "rssi", "security", "channel", "band", "bssid"}, …]`, absent values null.
    static func field(_ networks: [HeardNetwork]) -> JSONField {
        JSONField(
            "networks",
            .array(
                networks.map { network in
                    .object([
                        JSONField("ssid", .string(network.name)), JSONField("rssi", .int(network.rssi)),
                        JSONField("security", .optional(network.security?.rawValue)),
                        JSONField("authentication", .optional(network.authentication)),
                        JSONField("channel", .optional(network.channel)),
                        JSONField("band", .optional(network.band?.rawValue)),
                        JSONField("bssid", .optional(network.bssidText)),
                    ])
                }))
    }
}
