public import Transports

/// The Zhiting apps name a SoftAP device after the hotspot it serves.
extension JoinedWiFiNetwork {
    /// The hotspot's BSSID as the device ID the LAN protocol uses: 12 lower-case hex digits, no
    /// separators, e.g. `240ac41a2b3c`; nil unless the BSSID is six hex octets.
    ///
    /// Octets may come without their leading zero (`24:a:c4:…`, as iOS prints them), so each is
    /// padded, as the iOS app does; the IDs are compared with the lower-case hex of the LAN header.
    public var zhitingDeviceID: String? {
        let octets = bssid.split(separator: ":", omittingEmptySubsequences: false)
        guard octets.count == 6 else { return nil }
        var digits = ""
        for octet in octets {
            guard (1...2).contains(octet.count), octet.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
            digits += (octet.count == 1 ? "0" : "") + octet.lowercased()
        }
        return digits
    }
}
