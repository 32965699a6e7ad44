/// One scan result of a WIFI_LIST: `length (1 + SSID bytes) | RSSI (int8) | SSID`, records back to back.
public struct BluFiAccessPoint: Sendable, Hashable {
    /// The network name, raw bytes (hidden networks are not listed).
    public var ssid: [UInt8]
    /// Signal strength in dBm.
    public var rssi: Int8

    /// A scan result.
    public init(ssid: [UInt8], rssi: Int8) {
        self.ssid = ssid
        self.rssi = rssi
    }

    /// Parses a whole WIFI_LIST payload.
    public static func list(payload: [UInt8]) throws(BluFiError) -> [BluFiAccessPoint] {
        var accessPoints: [BluFiAccessPoint] = []
        var rest = payload[...]
        while let length = rest.first.map(Int.init) {
            let record = rest.dropFirst().prefix(length)
            guard record.count == length, let rssi = record.first else { throw .malformedPayload(.wifiList) }
            accessPoints.append(BluFiAccessPoint(ssid: Array(record.dropFirst()), rssi: Int8(bitPattern: rssi)))
            rest = rest.dropFirst(1 + length)
        }
        return accessPoints
    }

    /// The WIFI_LIST payload for `accessPoints`; SSIDs are at most 32 bytes, so every record fits its length byte.
    public static func payload(of accessPoints: [BluFiAccessPoint]) -> [UInt8] {
        accessPoints.flatMap { [UInt8(truncatingIfNeeded: 1 + $0.ssid.count), UInt8(bitPattern: $0.rssi)] + $0.ssid }
    }
}
