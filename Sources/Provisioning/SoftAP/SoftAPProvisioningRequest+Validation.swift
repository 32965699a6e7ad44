public import Protocomm

/// Length checks that run before the host's Wi-Fi is touched, so a typo never costs a hotspot join.
extension SoftAPProvisioningRequest {
    /// WPA2 accepts 8 to 63 characters, or 64 hex digits; ESP firmware takes 8 to 64 bytes.
    static let hotspotPasswordLengths = 8...64
    /// 802.11 SSIDs are 1 to 32 bytes.
    static let hotspotSSIDLengths = 1...32

    /// Checks every length and returns what "set config" will send; a batch runs it once up front too.
    public func validatedCredentials() throws(ProvisioningError) -> ProtocommWiFiCredentials {
        let hotspotSSIDLength = hotspot.ssid.utf8.count
        guard Self.hotspotSSIDLengths.contains(hotspotSSIDLength) else {
            throw .softAPInvalidSSID(length: hotspotSSIDLength, of: "hotspot name", option: "--ap-ssid")
        }
        let hotspotPasswordLength = hotspot.password?.revealed().utf8.count ?? 0
        guard hotspotPasswordLength == 0 || Self.hotspotPasswordLengths.contains(hotspotPasswordLength) else {
            throw ProvisioningError(
                .softAPInvalidHotspotPassword,
                "The hotspot password is \(hotspotPasswordLength) bytes long; WPA2 needs 8 to 64.",
                hint: "Check --ap-password-file or --ap-password-env, or give none for an open hotspot."
            )
        }
        return try network.validatedCredentials()
    }
}

extension ProtocommTargetNetwork {
    /// Checks the name and password lengths and returns what "set config" will send, whatever the transport.
    func validatedCredentials() throws(ProvisioningError) -> ProtocommWiFiCredentials {
        do {
            return try ProtocommWiFiCredentials(ssid: ssid, passphrase: passphrase.revealed())
        } catch .invalidSSIDLength(let length) {
            throw .softAPInvalidSSID(length: length, of: "Wi-Fi name", option: "--ssid")
        } catch .invalidPassphraseLength(let length) {
            throw ProvisioningError(
                .softAPInvalidPassphrase,
                "The Wi-Fi password is \(length) bytes long; the device stores at most "
                    + "\(ProtocommWiFiCredentials.maximumPassphraseLength).",
                hint: "Use the network's passphrase, not a 64-digit raw key; check --password-file or --password-env."
            )
        } catch {
            throw ProvisioningError(
                .softAPInvalidSSID, "The Wi-Fi settings are invalid.", hint: "Check --ssid.", detail: "\(error)")
        }
    }
}

extension ProvisioningError {
    fileprivate static func softAPInvalidSSID(length: Int, of what: String, option: String) -> ProvisioningError {
        ProvisioningError(
            .softAPInvalidSSID,
            "The \(what) is \(length) bytes long; Wi-Fi names are 1 to 32 bytes.",
            hint: "Check \(option); names outside ASCII take more than one byte per character."
        )
    }
}
