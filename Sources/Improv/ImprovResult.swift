/// A parsed RPC result, typed by the command it answers.
public enum ImprovResult: Sendable, Hashable {
    /// The answer to send Wi-Fi settings: the URL to finish onboarding at, if the device gives one.
    case provisioned(redirectURL: String?)
    case deviceInfo(ImprovDeviceInfo)
    /// Some or all of the networks of a scan; an empty list ends a scan sent one network per result.
    case networks([ImprovWiFiNetwork])
    case hostname(String)
    case deviceName(String)

    /// Parses a result frame's strings as the answer to `command` (which the caller matched against
    /// the frame's command byte).
    public static func parse(_ frame: ImprovRPCFrame, as command: ImprovCommand) throws(ImprovError) -> ImprovResult {
        let strings = try ImprovStringList.decode(frame.data)
        switch command {
        case .sendWiFiSettings:
            guard let first = strings.first, !first.isEmpty else { return .provisioned(redirectURL: nil) }
            return .provisioned(redirectURL: try ImprovStringList.text(first))
        case .deviceInfo:
            return .deviceInfo(try ImprovDeviceInfo(strings: strings))
        case .scanWiFiNetworks:
            guard strings.count.isMultiple(of: 3) else { throw .unexpectedStringCount(command, strings.count) }
            var networks: [ImprovWiFiNetwork] = []
            for index in stride(from: 0, to: strings.count, by: 3) {
                networks.append(try ImprovWiFiNetwork(strings: strings[index..<(index + 3)]))
            }
            return .networks(networks)
        case .hostname, .deviceName:
            guard strings.count == 1 else { throw .unexpectedStringCount(command, strings.count) }
            let name = try ImprovStringList.text(strings[0])
            return command == .hostname ? .hostname(name) : .deviceName(name)
        case .identify:
            throw .unexpectedResult(command: command.rawValue)
        }
    }
}

/// What a device says about itself in answer to the device info command.
public struct ImprovDeviceInfo: Sendable, Hashable {
    public let firmwareName: String
    public let firmwareVersion: String
    /// The chip or board, for example `esp32-s3-devkitc-1/esp32-s3`.
    public let hardware: String
    public let deviceName: String
    /// The operating system, when it differs from the firmware (the fifth and sixth strings).
    public let osName: String?
    public let osVersion: String?

    public init(
        firmwareName: String, firmwareVersion: String, hardware: String, deviceName: String,
        osName: String? = nil, osVersion: String? = nil
    ) {
        self.firmwareName = firmwareName
        self.firmwareVersion = firmwareVersion
        self.hardware = hardware
        self.deviceName = deviceName
        self.osName = osName
        self.osVersion = osVersion
    }

    init(strings: [[UInt8]]) throws(ImprovError) {
        guard strings.count == 4 || strings.count == 6 else {
            throw .unexpectedStringCount(.deviceInfo, strings.count)
        }
        var texts: [String] = []
        for string in strings { texts.append(try ImprovStringList.text(string)) }
        self.init(
            firmwareName: texts[0], firmwareVersion: texts[1], hardware: texts[2], deviceName: texts[3],
            osName: texts.count == 6 ? texts[4] : nil, osVersion: texts.count == 6 ? texts[5] : nil)
    }

    /// The strings of the result, in the specification's order.
    public var strings: [String] {
        [firmwareName, firmwareVersion, hardware, deviceName] + (osName.map { [$0, osVersion ?? ""] } ?? [])
    }
}

/// One network of a scan result.
public struct ImprovWiFiNetwork: Sendable, Hashable {
    public let ssid: String
    /// Signal strength in dBm.
    public let rssi: Int
    /// Authentication methods as the device names them (`WPA2`, `WPA/WPA2`, `NO`, …), split at `/`.
    public let authentication: [String]

    public init(ssid: String, rssi: Int, authentication: [String]) {
        self.ssid = ssid
        self.rssi = rssi
        self.authentication = authentication
    }

    init(strings: ArraySlice<[UInt8]>) throws(ImprovError) {
        let values = Array(strings)
        let ssid = try ImprovStringList.text(values[0])
        let rssiText = try ImprovStringList.text(values[1])
        guard rssiText.utf8.count <= 4, let rssi = Int(rssiText), (-128...127).contains(rssi) else {
            throw .malformedScanEntry
        }
        let authentication = try ImprovStringList.text(values[2])
        self.init(ssid: ssid, rssi: rssi, authentication: authentication.split(separator: "/").map(String.init))
    }

    /// SSID, RSSI and authentication as the device sends them.
    public var strings: [String] {
        [ssid, String(rssi), authentication.joined(separator: "/")]
    }
}
