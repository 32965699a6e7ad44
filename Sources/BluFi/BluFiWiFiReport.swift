/// The device's connection report (WIFI_REPORT): three fixed bytes, then TLVs.
///
/// Tags reuse data-subtype numbers: 0x01 BSSID, 0x02 SSID, 0x03 password, 0x04 SoftAP SSID,
/// 0x05 SoftAP password, 0x07 auth mode, 0x06 max connections, 0x08 channel, 0x14 retry budget,
/// 0x15 end reason, 0x16 RSSI — emitted in that order. Unknown tags are skipped by their length.
/// The `description` leaves both passwords out, so a report can be logged.
public struct BluFiWiFiReport: Sendable, Equatable, CustomStringConvertible {
    /// The device's Wi-Fi mode.
    public var operationMode: BluFiOperationMode
    /// The station's connection state.
    public var stationState: BluFiStationState
    /// Stations currently associated to the device's SoftAP.
    public var softAPStationCount: UInt8
    /// When connected: the BSSID of the access point.
    public var stationBSSID: [UInt8]?
    /// When connected: the SSID joined.
    public var stationSSID: [UInt8]?
    /// The station passphrase, if the firmware reports it (the example does not).
    public var stationPassword: [UInt8]?
    /// The SoftAP's SSID, if reported.
    public var softAPSSID: [UInt8]?
    /// The SoftAP's passphrase, if reported.
    public var softAPPassword: [UInt8]?
    /// The SoftAP's authentication mode, if reported.
    public var softAPAuthMode: BluFiSoftAPAuthMode?
    /// The SoftAP's station limit, if reported.
    public var softAPMaxConnections: UInt8?
    /// The SoftAP's channel, if reported.
    public var softAPChannel: UInt8?
    /// While connecting: how many retries the device allows.
    public var maximumConnectionRetries: UInt8?
    /// After a failed attempt: why it ended (``BluFiConnectionEndReason/none`` before any attempt).
    public var endReason: BluFiConnectionEndReason?
    /// After a failed attempt: signal strength in dBm; −128 means no value.
    public var rssi: Int8?

    /// A report with the three fixed fields and no TLVs.
    public init(operationMode: BluFiOperationMode, stationState: BluFiStationState, softAPStationCount: UInt8 = 0) {
        self.operationMode = operationMode
        self.stationState = stationState
        self.softAPStationCount = softAPStationCount
    }

    /// Parses a WIFI_REPORT payload.
    public init(payload: [UInt8]) throws(BluFiError) {
        guard payload.count >= 3, let mode = BluFiOperationMode(rawValue: payload[0]),
            let state = BluFiStationState(rawValue: payload[1])
        else { throw .malformedPayload(.wifiReport) }
        self.init(operationMode: mode, stationState: state, softAPStationCount: payload[2])
        var rest = payload.dropFirst(3)
        while !rest.isEmpty {
            guard rest.count >= 2, rest.count - 2 >= Int(rest[rest.startIndex + 1]) else {
                throw .malformedPayload(.wifiReport)
            }
            let tag = rest[rest.startIndex]
            let value = Array(rest.dropFirst(2).prefix(Int(rest[rest.startIndex + 1])))
            try apply(tag: tag, value: value)
            rest = rest.dropFirst(2 + value.count)
        }
    }

    /// The WIFI_REPORT payload, TLVs in ESP-IDF's order.
    public var payload: [UInt8] {
        var bytes = [operationMode.rawValue, stationState.rawValue, softAPStationCount]
        func add(_ tag: BluFiFrameType, _ value: [UInt8]?) {
            guard let value else { return }
            bytes += [tag.subtype, UInt8(truncatingIfNeeded: value.count)] + value
        }
        add(.staBSSID, stationBSSID)
        add(.staSSID, stationSSID)
        add(.staPassword, stationPassword)
        add(.softAPSSID, softAPSSID)
        add(.softAPPassword, softAPPassword)
        add(.softAPAuthMode, softAPAuthMode.map { [$0.rawValue] })
        add(.softAPMaxConnections, softAPMaxConnections.map { [$0] })
        add(.softAPChannel, softAPChannel.map { [$0] })
        add(.staMaxConnectionRetry, maximumConnectionRetries.map { [$0] })
        add(.staConnectionEndReason, endReason.map { [$0.rawValue] })
        add(.staConnectionRSSI, rssi.map { [UInt8(bitPattern: $0)] })
        return bytes
    }

    public var description: String {
        var parts = ["mode \(operationMode)", "station \(stationState)"]
        if let stationSSID { parts.append("ssid \(String(decoding: stationSSID, as: UTF8.self))") }
        if let stationBSSID {
            let octets = stationBSSID.map { ($0 < 0x10 ? "0" : "") + String($0, radix: 16) }
            parts.append("bssid \(octets.joined(separator: ":"))")
        }
        if let endReason { parts.append("end \(endReason)") }
        if let rssi { parts.append("rssi \(rssi)") }
        if let softAPSSID { parts.append("softap ssid \(String(decoding: softAPSSID, as: UTF8.self))") }
        return parts.joined(separator: ", ")
    }

    private mutating func apply(tag: UInt8, value: [UInt8]) throws(BluFiError) {
        guard tag < 64 else { return }
        switch BluFiFrameType(.data, subtype: tag) {
        case .staBSSID: stationBSSID = try exact(6, value)
        case .staSSID: stationSSID = value
        case .staPassword: stationPassword = value
        case .softAPSSID: softAPSSID = value
        case .softAPPassword: softAPPassword = value
        case .softAPAuthMode: softAPAuthMode = BluFiSoftAPAuthMode(rawValue: try exact(1, value)[0])
        case .softAPMaxConnections: softAPMaxConnections = try exact(1, value)[0]
        case .softAPChannel: softAPChannel = try exact(1, value)[0]
        case .staMaxConnectionRetry: maximumConnectionRetries = try exact(1, value)[0]
        case .staConnectionEndReason: endReason = BluFiConnectionEndReason(rawValue: try exact(1, value)[0])
        case .staConnectionRSSI: rssi = Int8(bitPattern: try exact(1, value)[0])
        default: return
        }
    }

    private func exact(_ count: Int, _ value: [UInt8]) throws(BluFiError) -> [UInt8] {
        guard value.count == count else { throw .malformedPayload(.wifiReport) }
        return value
    }
}
