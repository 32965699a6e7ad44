import BluFi
import TestSupport
import Testing

/// WIFI_REPORT and WIFI_LIST payloads: real device traces, every tag, and malformed input.
@Suite struct BluFiPayloadTests {
    @Test func parsesTheReportTraceOfZxf1023818103Blufi() throws {
        // From the trace in zxf1023818103/blufi's README: `3d 04 00 16 01 00 00 01 06 dc2c6e61f4c1 02 09 "Zeng_2.4G"`.
        let report = try BluFiWiFiReport(
            payload: [UInt8](hex: "01 00 00 01 06 dc2c6e61f4c1 02 09") + Array("Zeng_2.4G".utf8))
        #expect(report.operationMode == .station)
        #expect(report.stationState == .connected)
        #expect(report.stationBSSID == [UInt8](hex: "dc2c6e61f4c1"))
        #expect(report.stationSSID == Array("Zeng_2.4G".utf8))
        #expect(report.endReason == nil && report.rssi == nil)
    }

    @Test func everyTagRoundTripsInTheDevicesOrder() throws {
        var report = BluFiWiFiReport(
            operationMode: .stationAndSoftAP, stationState: .disconnected, softAPStationCount: 2)
        report.stationBSSID = [1, 2, 3, 4, 5, 6]
        report.stationSSID = Array("home".utf8)
        report.stationPassword = Array("hunter22".utf8)
        report.softAPSSID = Array("ap".utf8)
        report.softAPPassword = Array("12345678".utf8)
        report.softAPAuthMode = .wpa2WPA3PSK
        report.softAPMaxConnections = 4
        report.softAPChannel = 11
        report.maximumConnectionRetries = 2
        report.endReason = .handshakeTimeout
        report.rssi = -71
        let payload = report.payload
        #expect(payload.prefix(3) == [3, 1, 2])
        let tags = tagsInOrder(payload)
        #expect(tags == [0x01, 0x02, 0x03, 0x04, 0x05, 0x07, 0x06, 0x08, 0x14, 0x15, 0x16])
        #expect(try BluFiWiFiReport(payload: payload) == report)
        #expect(!report.description.contains("hunter22") && !report.description.contains("12345678"))
        #expect(report.description.contains("bssid 01:02:03:04:05:06"), "\(report.description)")
    }

    @Test func unknownTagsAreSkippedByLength() throws {
        let report = try BluFiWiFiReport(payload: [UInt8](hex: "01 02 00 30 03 aa bb cc 14 01 02 ff 00"))
        #expect(report.stationState == .connecting)
        #expect(report.maximumConnectionRetries == 2)
    }

    @Test(arguments: [
        "01 00", "04 00 00", "01 04 00", "01 00 00 01 05 1122334455", "01 00 00 02 09 41",
        "01 00 00 15 02 0f 00", "01 00 00 16",
    ])
    func malformedReportsAreNamed(hex: String) {
        #expect(throws: BluFiError.malformedPayload(.wifiReport)) { try BluFiWiFiReport(payload: [UInt8](hex: hex)) }
    }

    @Test func wifiListParsesSignedRSSIAndRejectsTruncation() throws {
        let payload = [UInt8](hex: "05 c8") + Array("home".utf8) + [UInt8](hex: "01 a6") + [UInt8](hex: "03 01 41 42")
        let list = try BluFiAccessPoint.list(payload: payload)
        #expect(
            list == [
                BluFiAccessPoint(ssid: Array("home".utf8), rssi: -56), BluFiAccessPoint(ssid: [], rssi: -90),
                BluFiAccessPoint(ssid: [0x41, 0x42], rssi: 1),
            ])
        #expect(BluFiAccessPoint.payload(of: list) == payload)
        #expect(try BluFiAccessPoint.list(payload: []) == [])
        #expect(throws: BluFiError.malformedPayload(.wifiList)) { try BluFiAccessPoint.list(payload: [0x00]) }
        #expect(throws: BluFiError.malformedPayload(.wifiList)) {
            try BluFiAccessPoint.list(payload: [0x05, 0xC8, 0x41])
        }
    }

    @Test func typeBytesPackKindAndSubtype() {
        #expect(BluFiFrameType.staSSID.rawValue == 0x09)
        #expect(BluFiFrameType.getVersion.rawValue == 0x1C)
        #expect(BluFiFrameType.customData.rawValue == 0x4D)
        #expect(BluFiFrameType(rawValue: 0x49) == .error)
        #expect(BluFiFrameType(rawValue: 0x49).kind == .data && BluFiFrameType(rawValue: 0x49).subtype == 0x12)
        #expect(BluFiFrameType(rawValue: 0x02).kind == nil && !BluFiFrameType(rawValue: 0x02).isDefined)
        #expect(!BluFiFrameType(.data, subtype: 0x17).isDefined)
        #expect(BluFiFrameType.staConnectionRSSI.description == "STA_CONN_RSSI")
    }

    @Test func fragmentSizesFollowTheMTU() {
        #expect(BluFiFragmenter.phone(attMTU: nil, checksum: true).contentPerFragment == 12)
        #expect(BluFiFragmenter.phone(attMTU: 23, checksum: false).contentPerFragment == 14)
        #expect(BluFiFragmenter.phone(attMTU: 517, checksum: false).contentPerFragment == 249)
        #expect(BluFiFragmenter.device(attMTU: nil).contentPerFragment == 12)
        #expect(BluFiFragmenter.device(attMTU: 185).contentPerFragment == 174)
        #expect(BluFiFragmenter.device(attMTU: 517).contentPerFragment == 244)
    }

    private func tagsInOrder(_ payload: [UInt8]) -> [UInt8] {
        var tags: [UInt8] = []
        var index = 3
        while index + 1 < payload.count {
            tags.append(payload[index])
            index += 2 + Int(payload[index + 1])
        }
        return tags
    }
}
