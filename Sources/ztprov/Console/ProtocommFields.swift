import JSONWriting
import Protocomm
import Provisioning
import Records
import Transports

/// Protocomm's values as JSON and `ot-ctl` spell them, in progress events and results alike.
enum ProtocommFields {
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
