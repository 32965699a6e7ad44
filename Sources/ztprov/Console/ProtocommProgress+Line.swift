import JSONWriting
import Protocomm
import Provisioning

extension ProtocommProgress: ConsoleProgress {
    var line: ProgressLine {
        switch self {
        case .deviceDescribed(let info):
            ProgressLine(
                .detail, "Device runs protocomm \(info.version)", event: "device-described",
                [JSONField("version", .string(info.version)), JSONField("sec_ver", .optional(info.securityVersion))])
        case .securityChosen(let security):
            ProgressLine(
                "Using \(ProtocommFields.describe(security))", event: "security-chosen",
                ProtocommFields.fields(security))
        case .sessionEstablished(let level):
            ProgressLine(
                "Session with \(level) established", event: "session-established",
                [JSONField("security", .int(level.rawValue))])
        case .scanningNetworks: ProgressLine("The device is scanning for networks", event: "scanning-networks")
        case .networksListed(let networks): Self.line(networks)
        case .scanUnavailable:
            ProgressLine(
                .warning, "The device cannot list networks (no wifi_scan capability)", event: "scan-unavailable")
        case .credentialsSent(let ssid):
            ProgressLine("Sent the settings for \(ssid)", event: "credentials-sent", [JSONField("ssid", .string(ssid))])
        case .credentialsApplied: ProgressLine("The device is joining the network", event: "credentials-applied")
        case .deviceConnecting(let attemptsRemaining):
            ProgressLine(
                .detail, "Still joining" + (attemptsRemaining.map { " (\($0) attempts left)" } ?? ""),
                event: "device-connecting",
                [JSONField("attempts_remaining", .optional(attemptsRemaining.map(Int.init)))])
        case .deviceConnected(let connection):
            ProgressLine(
                .success, "The device joined \(connection.ssid) as \(connection.ipAddress)",
                event: "device-connected", ProtocommFields.fields(connection))
        case .deviceReset: ProgressLine("The device is ready for new settings", event: "device-reset")
        case .deviceResetUnavailable:
            ProgressLine(
                .warning, "The device could not be reset; power-cycle it before the next try",
                event: "device-reset-unavailable")
        case .retryingCredentials(let attempt):
            ProgressLine(
                "Sending the new settings (attempt \(attempt))", event: "credentials-retry",
                [JSONField("attempt", .int(attempt))])
        case .threadNetworksListed(let networks): Self.line(networks)
        case .datasetSent(let identity): Self.line(sent: identity)
        case .datasetApplied: ProgressLine("The device is attaching to the Thread network", event: "dataset-applied")
        case .deviceAttaching: ProgressLine(.detail, "Still attaching", event: "device-attaching")
        case .deviceAttached(let attachment):
            ProgressLine(
                .success,
                "The device attached to \(attachment.networkName) (PAN ID \(ProtocommFields.panID(attachment.panID)), "
                    + "channel \(attachment.channel))",
                event: "device-attached", ProtocommFields.fields(attachment))
        }
    }

    private static func line(sent identity: ThreadNetworkIdentity) -> ProgressLine {
        ProgressLine(
            "Sent the Thread dataset for \(identity.name ?? "the Thread network")"
                + (identity.channel.map { " on channel \($0)" } ?? ""),
            event: "dataset-sent",
            [
                JSONField("network_name", .optional(identity.name)),
                JSONField("pan_id", .optional(identity.panID.map { ProtocommFields.panID(UInt32($0)) })),
                JSONField("ext_pan_id", .optional(identity.extendedPANID.map(ProtocommFields.hex))),
                JSONField("channel", .optional(identity.channel.map(Int.init))),
            ])
    }

    /// The Wi-Fi networks the device lists, one row each.
    private static func line(_ networks: [ProtocommWiFiNetwork]) -> ProgressLine {
        ProgressLine(
            "The device sees \(networks.count) network" + (networks.count == 1 ? "" : "s"), event: "networks",
            [
                JSONField(
                    "networks",
                    .array(
                        networks.map { network in
                            .object([
                                JSONField("ssid", .string(HeardNetwork(network).name)),
                                JSONField("channel", .int(Int(network.channel))),
                                JSONField("rssi", .int(Int(network.rssi))),
                                JSONField("auth", .string("\(network.authMode)")),
                                JSONField("band", .optional(HeardNetwork(network).band?.rawValue)),
                                JSONField("bssid", .optional(HeardNetwork(network).bssidText)),
                            ])
                        }))
            ],
            rows: networks.map { HeardNetworkText.row(HeardNetwork($0)) })
    }

    /// The Thread networks the device hears, as a table with a header.
    private static func line(_ networks: [ProtocommThreadNetwork]) -> ProgressLine {
        let rows = networks.map { network in
            [
                TerminalText.printable(network.networkName), ProtocommFields.hex(network.extendedPANID),
                ProtocommFields.panID(network.panID), "\(network.channel)", "\(network.rssi) dBm", "\(network.lqi)",
            ]
        }
        let header = ["NETWORK", "EXT PAN ID", "PAN ID", "CHANNEL", "RSSI", "LQI"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ProgressLine(
            "The device hears \(networks.count) Thread network" + (networks.count == 1 ? "" : "s"),
            event: "thread-networks", [ProtocommFields.threadNetworksField(networks)],
            rows: ([header] + rows).map { row in
                row.indices.map { column in
                    column == row.count - 1
                        ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
                }
                .joined(separator: "  ")
            })
    }
}
