public import BluFi
public import Improv
public import Protocomm

/// Each protocol's scan entry as a ``HeardNetwork``: BluFi reports a name and a signal, Improv adds
/// whether a password is needed, protocomm adds the channel, the access point and the authentication mode.
extension HeardNetwork {
    public init(_ accessPoint: BluFiAccessPoint) {
        self.init(ssid: accessPoint.ssid, rssi: Int(accessPoint.rssi))
    }

    public init(_ network: ImprovWiFiNetwork) {
        let words = network.authentication.map { $0.uppercased() }
        let security: Security? =
            switch words {
            case []: nil
            case ["NO"], ["OPEN"], ["NONE"]: .open
            case let words where words.contains(where: { $0.contains("EAP") || $0.contains("ENTERPRISE") }):
                .enterprise
            default: .secured
            }
        self.init(
            ssid: network.ssid.utf8, rssi: network.rssi, security: security,
            authentication: network.authentication.joined(separator: "/"))
    }

    public init(_ network: ProtocommWiFiNetwork) {
        let security: Security =
            switch network.authMode {
            // OWE encrypts without a password.
            case .open, .owe: .open
            case .wpa2Enterprise, .wpa3Enterprise192, .wpa3Enterprise, .wpa2WPA3Enterprise, .wpaEnterprise:
                .enterprise
            default: .secured
            }
        self.init(
            ssid: network.ssid, rssi: Int(network.rssi), security: security, authentication: "\(network.authMode)",
            channel: Int(network.channel), bssid: network.bssid.count == 6 ? network.bssid : nil)
    }
}
