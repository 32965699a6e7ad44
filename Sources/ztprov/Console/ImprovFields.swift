import Improv
import JSONWriting
import Provisioning

/// Improv's values as JSON spells them, in progress events, `ble`'s result and `scan` alike.
enum ImprovFields {
    /// The state as JSON spells it: `authorization-required`, `authorized`, `provisioning`, `provisioned`.
    static func name(_ state: ImprovState) -> String {
        state.description.split(separator: " ").joined(separator: "-")
    }

    static func capabilitiesField(_ capabilities: ImprovCapabilities) -> JSONField {
        let names = capabilities.description == "none" ? [] : capabilities.description.split(separator: ",")
        return JSONField("capabilities", .array(names.map { .string(String($0)) }))
    }

    static func fields(_ info: ImprovDeviceInfo) -> [JSONField] {
        [
            JSONField("firmware", .string(info.firmwareName)),
            JSONField("firmware_version", .string(info.firmwareVersion)),
            JSONField("hardware", .string(info.hardware)), JSONField("device_name", .string(info.deviceName)),
            JSONField("os", .optional(info.osName)), JSONField("os_version", .optional(info.osVersion)),
        ]
    }

    static func networksField(_ found: [ImprovWiFiNetwork]) -> JSONField {
        JSONField(
            "networks",
            .array(
                found.map { network in
                    .object([
                        JSONField("ssid", .string(HeardNetwork(network).name)), JSONField("rssi", .int(network.rssi)),
                        JSONField("authentication", .string(network.authentication.joined(separator: "/"))),
                    ])
                }))
    }
}
