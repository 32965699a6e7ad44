import BluFi
import FoundationEssentials
import Provisioning

/// The Wi-Fi settings as the options describe them, with the secrets read.
extension WiFiOptions {
    /// The settings, with the secrets read from their sources; a password of the wrong length is a usage error.
    func settings(expectsDeviceID: Bool) throws(ProvisioningError) -> WiFiSettings {
        let environment = ProcessInfo.processInfo.environment
        let station = try ssid.map { (ssid) throws(ProvisioningError) in
            WiFiStationSettings(
                ssid: ssid,
                password: try WiFiPassphrase.resolve(
                    password, openNetwork: openNetwork, code: .invalidOption, environment: environment),
                bssid: bssid.flatMap(Self.bssidBytes))
        }
        let softAP = try mode == .sta ? nil : softAPSettings(environment: environment)
        switch (mode, station, softAP) {
        case (.sta, let station?, _): return WiFiSettings(.station(station), expectsDeviceID: expectsDeviceID)
        case (.staAndSoftAP, let station?, let softAP?):
            return WiFiSettings(.stationAndSoftAP(station, softAP), expectsDeviceID: expectsDeviceID)
        case (_, _, let softAP?): return WiFiSettings(.softAP(softAP), expectsDeviceID: expectsDeviceID)
        default:
            throw ProvisioningError(.invalidOption, "No network was given.", hint: "Pass --ssid.")
        }
    }

    private func softAPSettings(environment: [String: String]) throws(ProvisioningError) -> BluFiSoftAPSettings {
        let secret = try apPassword.resolve(environment: environment) { _ in nil } ?? Secret("")
        let length = secret.revealed().utf8.count
        guard length == 0 || (8...31).contains(length) else {
            throw ProvisioningError(
                .invalidOption, "The access point password must be 8 to 31 bytes; this one has \(length).",
                hint: "Give another --ap-password-file, or none to keep the device's.")
        }
        return BluFiSoftAPSettings(
            ssid: apSSID ?? "", password: secret, channel: apChannel ?? 0, maxConnections: apMaxConnections ?? 0,
            authMode: apAuth.mode)
    }
}
