import ArgumentParser
import BluFi
import Provisioning

/// The Wi-Fi network every BLE protocol sends the device to (`ble`, and `batch` for every unit), and what
/// only BluFi configures: the Wi-Fi mode, its security scheme, and for the SoftAP modes the device's own
/// access point.
struct WiFiOptions: ParsableArguments {
    enum SecurityChoice: String, ExpressibleByArgument, CaseIterable {
        case auto, none, v1, v2
    }

    enum ModeChoice: String, ExpressibleByArgument, CaseIterable {
        case sta, softap
        case staAndSoftAP = "sta+softap"
    }

    @Option(help: ArgumentHelp("Network the device joins (1 to 32 bytes).", valueName: "ssid"))
    var ssid: String?

    @OptionGroup(title: "Wi-Fi password")
    var password: SecretOptions<WiFiPasswordSecret>

    @Flag(name: .customLong("open-network"), help: "The network has no password; send none.")
    var openNetwork = false

    @Option(help: ArgumentHelp("Pin the join to this access point (AA:BB:CC:DD:EE:FF).", valueName: "bssid"))
    var bssid: String?

    @Option(help: "BluFi security: auto (GET_VERSION decides: V1 below 1.4, V2 from 1.4), none, v1 or v2.")
    var security: SecurityChoice = .auto

    @Option(help: "Wi-Fi mode: sta (join --ssid), softap (run the device's access point) or sta+softap.")
    var mode: ModeChoice = .sta

    @Option(help: ArgumentHelp("SSID of the device's own access point (SoftAP modes).", valueName: "ssid"))
    var apSSID: String?

    @OptionGroup(title: "Device access point password (SoftAP modes; empty keeps the device's)")
    var apPassword: SecretOptions<HotspotPasswordSecret>

    @Option(
        help: ArgumentHelp("Channel of the device's access point, 1 to 13.", valueName: "channel"),
        transform: DecimalInteger.parse)
    var apChannel: UInt8?

    @Option(
        help: ArgumentHelp("Stations the device's access point admits, 1 to 4.", valueName: "count"),
        transform: DecimalInteger.parse)
    var apMaxConnections: UInt8?

    @Option(help: "Authentication of the device's access point: open, wpa-psk, wpa2-psk, wpa-wpa2-psk, wpa3-psk.")
    var apAuth: AccessPointAuth = .wpa2PSK

    func validate() throws {
        if let ssid, !(1...32).contains(ssid.utf8.count) {
            throw ValidationError("--ssid must be 1 to 32 bytes; this one has \(ssid.utf8.count).")
        }
        if mode == .sta, apSSID != nil || apChannel != nil || apMaxConnections != nil {
            throw ValidationError("--ap-* options need --mode softap or sta+softap.")
        }
        if let apSSID, apSSID.utf8.count > 31 { throw ValidationError("--ap-ssid must be at most 31 bytes.") }
        if let apChannel, !(1...13).contains(apChannel) { throw ValidationError("--ap-channel must be 1 to 13.") }
        if let apMaxConnections, !(1...4).contains(apMaxConnections) {
            throw ValidationError("--ap-max-connections must be 1 to 4.")
        }
        if let bssid, WiFiOptions.bssidBytes(bssid) == nil {
            throw ValidationError("--bssid takes six hex octets such as 24:0A:C4:12:34:56.")
        }
    }

    /// The station modes need a network; a command that can do without one (a Thread dataset) checks first.
    func requireNetwork() throws {
        if mode != .softap, ssid == nil { throw ValidationError("Pass --ssid with the network the device joins.") }
    }

    /// The first Wi-Fi option given, which a Thread device cannot use.
    var firstWiFiOption: String? {
        if ssid != nil { return "--ssid" }
        if password.isGiven { return "--password-file/--password-env" }
        if openNetwork { return "--open-network" }
        if apPassword.isGiven { return "--ap-password-file/--ap-password-env" }
        if apSSID != nil || apChannel != nil || apMaxConnections != nil || apAuth != .wpa2PSK { return "--ap-*" }
        return bluFiOnlyOption
    }

    /// The first option given that only BluFi uses, so another protocol refuses it rather than drop it.
    var bluFiOnlyOption: String? {
        if bssid != nil { return "--bssid" }
        if security != .auto { return "--security" }
        if mode != .sta { return "--mode" }
        return nil
    }

    var securityChoice: BluFiSecurityChoice {
        switch security {
        case .auto: .automatic
        case .none: .fixed(.none)
        case .v1: .fixed(.v1)
        case .v2: .fixed(.v2)
        }
    }

    static func bssidBytes(_ text: String) -> [UInt8]? {
        let octets = text.split(separator: ":", omittingEmptySubsequences: false)
        let bytes = octets.compactMap { $0.count == 2 && $0.allSatisfy(\.isHexDigit) ? UInt8($0, radix: 16) : nil }
        return octets.count == 6 && bytes.count == 6 ? bytes : nil
    }
}

/// `--ap-auth`: the SoftAP authentication modes a person would pick.
enum AccessPointAuth: String, ExpressibleByArgument, CaseIterable {
    case open
    case wpaPSK = "wpa-psk"
    case wpa2PSK = "wpa2-psk"
    case wpaWPA2PSK = "wpa-wpa2-psk"
    case wpa3PSK = "wpa3-psk"

    var mode: BluFiSoftAPAuthMode {
        switch self {
        case .open: .open
        case .wpaPSK: .wpaPSK
        case .wpa2PSK: .wpa2PSK
        case .wpaWPA2PSK: .wpaWPA2PSK
        case .wpa3PSK: .wpa3PSK
        }
    }
}
