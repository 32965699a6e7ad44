import JSONWriting
import Provisioning
import Transports
import ZhitingLAN

/// The LAN protocol's values as people and JSON read them, in progress, `handoff` and `discover` alike.
enum LANFields {
    /// `model (software 1.0.0, hardware esp32c3)`, leaving out what the device did not say.
    static func describe(_ info: ZhitingDeviceInfo) -> String {
        let versions = [
            info.softwareVersion.map { "software \($0)" }, info.hardwareVersion.map { "hardware \($0)" },
        ].compactMap { $0 }
        return (info.model ?? "an unnamed model") + (versions.isEmpty ? "" : " (\(versions.joined(separator: ", ")))")
    }

    static func fields(_ device: LANDevice) -> [JSONField] {
        [
            JSONField("id", .string("\(device.id)")), JSONField("ip", .string(device.endpoint.host)),
            JSONField("udp_port", .int(Int(device.endpoint.port))),
        ]
    }

    static func fields(_ info: ZhitingDeviceInfo) -> [JSONField] {
        [
            JSONField("model", .optional(info.model)), JSONField("sw_ver", .optional(info.softwareVersion)),
            JSONField("hw_ver", .optional(info.hardwareVersion)), JSONField("sa_id", .optional(info.smartAssistantID)),
            JSONField("port", .optional(info.port)),
        ]
    }
}
