import JSONWriting
import Protocomm
import Provisioning
import Records
import Transports

/// Renders a protocomm conversation's progress, whichever transport carries it.
struct ProtocommProgressPrinter: Sendable {
    let console: Console

    func report(_ progress: ProtocommProgress) {
        switch progress {
        case .deviceDescribed(let info):
            console.progress("Device runs protocomm \(info.version)", detail: true)
            console.event(
                "device-described",
                [JSONField("version", .string(info.version)), JSONField("sec_ver", .optional(info.securityVersion))])
        case .securityChosen(let security):
            console.progress("Using \(Self.describe(security))")
            console.event("security-chosen", Self.fields(security))
        case .sessionEstablished(let level):
            console.progress("Session with \(level) established")
            console.event("session-established", [JSONField("security", .int(level.rawValue))])
        case .scanningNetworks:
            console.progress("The device is scanning for networks")
            console.event("scanning-networks")
        case .networksListed(let networks):
            report(networks)
        case .scanUnavailable:
            console.warning("The device cannot list networks (no wifi_scan capability)")
            console.event("scan-unavailable")
        default:
            reportConnection(progress)
        }
    }

    private func reportConnection(_ progress: ProtocommProgress) {
        switch progress {
        case .credentialsSent(let ssid):
            console.progress("Sent the settings for \(ssid)")
            console.event("credentials-sent", [JSONField("ssid", .string(ssid))])
        case .credentialsApplied:
            console.progress("The device is joining the network")
            console.event("credentials-applied")
        case .deviceConnecting(let attemptsRemaining):
            console.progress(
                "Still joining" + (attemptsRemaining.map { " (\($0) attempts left)" } ?? ""), detail: true)
            console.event(
                "device-connecting", [JSONField("attempts_remaining", .optional(attemptsRemaining.map(Int.init)))])
        case .deviceConnected(let connection):
            console.success("The device joined \(connection.ssid) as \(connection.ipAddress)")
            console.event("device-connected", Self.fields(connection))
        case .deviceReset:
            console.progress("The device is ready for new settings")
            console.event("device-reset")
        case .deviceResetUnavailable:
            console.warning("The device could not be reset; power-cycle it before the next try")
            console.event("device-reset-unavailable")
        case .retryingCredentials(let attempt):
            console.progress("Sending the new settings (attempt \(attempt))")
            console.event("credentials-retry", [JSONField("attempt", .int(attempt))])
        default:
            reportThread(progress)
        }
    }

    private func reportThread(_ progress: ProtocommProgress) {
        switch progress {
        case .threadNetworksListed(let networks):
            report(networks)
        case .datasetSent(let identity):
            let name = identity.name ?? "the Thread network"
            let channel = identity.channel.map { " on channel \($0)" } ?? ""
            console.progress("Sent the Thread dataset for \(name)\(channel)")
            console.event(
                "dataset-sent",
                [
                    JSONField("network_name", .optional(identity.name)),
                    JSONField("pan_id", .optional(identity.panID.map { Self.panID(UInt32($0)) })),
                    JSONField("ext_pan_id", .optional(identity.extendedPANID.map(Self.hex))),
                    JSONField("channel", .optional(identity.channel.map(Int.init))),
                ])
        case .datasetApplied:
            console.progress("The device is attaching to the Thread network")
            console.event("dataset-applied")
        case .deviceAttaching:
            console.progress("Still attaching", detail: true)
            console.event("device-attaching")
        case .deviceAttached(let attachment):
            console.success(
                "The device attached to \(attachment.networkName) (PAN ID \(Self.panID(attachment.panID)), "
                    + "channel \(attachment.channel))")
            console.event("device-attached", Self.fields(attachment))
        default:
            break
        }
    }

    /// The Thread networks as a table on stdout (human mode) and one JSON event.
    private func report(_ networks: [ProtocommThreadNetwork]) {
        console.progress("The device hears \(networks.count) Thread network" + (networks.count == 1 ? "" : "s"))
        let rows = networks.map { network in
            [
                TerminalText.printable(network.networkName), Self.hex(network.extendedPANID), Self.panID(network.panID),
                "\(network.channel)",
                "\(network.rssi) dBm", "\(network.lqi)",
            ]
        }
        let header = ["NETWORK", "EXT PAN ID", "PAN ID", "CHANNEL", "RSSI", "LQI"]
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            let cells = row.indices.map { column in
                column == row.count - 1
                    ? row[column] : row[column] + String(repeating: " ", count: widths[column] - row[column].count)
            }
            console.output(cells.joined(separator: "  "))
        }
        console.event("thread-networks", [Self.threadNetworksField(networks)])
    }

    /// `"networks": [...]` for Thread scan results.
    static func threadNetworksField(_ networks: [ProtocommThreadNetwork]) -> JSONField {
        JSONField(
            "networks",
            .array(
                networks.map { network in
                    .object([
                        JSONField("network_name", .string(network.networkName)),
                        JSONField("ext_pan_id", .string(hex(network.extendedPANID))),
                        JSONField("pan_id", .string(panID(network.panID))),
                        JSONField("channel", .int(Int(network.channel))),
                        JSONField("rssi", .int(Int(network.rssi))),
                        JSONField("lqi", .int(Int(network.lqi))),
                        JSONField("ext_addr", .string(hex(network.extendedAddress))),
                    ])
                }))
    }

    static func fields(_ attachment: ProtocommThreadAttachment) -> [JSONField] {
        [
            JSONField("network_name", .string(attachment.networkName)),
            JSONField("pan_id", .string(panID(attachment.panID))),
            JSONField("ext_pan_id", .string(hex(attachment.extendedPANID))),
            JSONField("channel", .int(Int(attachment.channel))),
        ]
    }

    /// `0x1234`, as `ot-ctl panid` prints it.
    static func panID(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Lower-case hex digits, as `ot-ctl extpanid` prints them.
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    private func report(_ networks: [ProtocommWiFiNetwork]) {
        console.progress("The device sees \(networks.count) network" + (networks.count == 1 ? "" : "s"))
        for network in networks { console.output(HeardNetworkText.row(HeardNetwork(network))) }
        console.event(
            "networks",
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
            ])
    }

    /// `security 1 with PoP (from /proto-ver)`, `security 2 patch 1 (forced)`.
    static func describe(_ security: ProtocommSecurityUsed) -> String {
        let patch = security.patch.map { " patch \($0.rawValue)" } ?? ""
        let pop = security.level == .security1 ? (security.usesProofOfPossession ? " with PoP" : " without PoP") : ""
        return "\(security.level)\(patch)\(pop) (\(security.isAutomatic ? "from /proto-ver" : "forced"))"
    }

    static func fields(_ security: ProtocommSecurityUsed) -> [JSONField] {
        [
            JSONField("security", .int(security.level.rawValue)),
            JSONField("sec2_patch", .optional(security.patch?.rawValue)),
            JSONField("automatic", .bool(security.isAutomatic)),
            JSONField("secured_with", .string(ProvisioningSecurity(security).text)),
        ]
    }

    static func fields(_ connection: ProtocommDeviceConnection) -> [JSONField] {
        [
            JSONField("ip", .string(connection.ipAddress)), JSONField("ssid", .string(connection.ssid)),
            JSONField("bssid", .optional(connection.bssid)), JSONField("channel", .int(connection.channel)),
        ]
    }
}
