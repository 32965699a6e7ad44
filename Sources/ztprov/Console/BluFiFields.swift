import BluFi
import JSONWriting
import Provisioning
import StringEssentials

/// BluFi's values as JSON spells them, in progress events and in `ble`'s result alike.
enum BluFiFields {
    /// The report's fields; passwords never reach here (the flow strips them).
    static func fields(_ report: BluFiWiFiReport) -> [JSONField] {
        [
            JSONField("mode", .string(report.operationMode.displayName)),
            JSONField("station_state", .string("\(report.stationState)")),
            JSONField("ssid", .optional(report.stationSSID.map { String(decoding: $0, as: UTF8.self) })),
            JSONField("bssid", .optional(report.stationBSSID?.colonSeparatedHex)),
            JSONField("rssi", .optional(report.rssi.map(Int.init))),
            JSONField("end_reason", .optional(report.endReason.map { Int($0.rawValue) })),
            JSONField("softap_ssid", .optional(report.softAPSSID.map { String(decoding: $0, as: UTF8.self) })),
            JSONField("softap_stations", .int(Int(report.softAPStationCount))),
        ]
    }

    /// `none`, `v1`, `v2`.
    static func name(_ scheme: BluFiSecurityScheme) -> String {
        switch scheme {
        case .none: "none"
        case .v1: "v1"
        case .v2: "v2"
        }
    }
}
