/// What "set config" sends: the network to join, checked against the device's limits.
public struct ProtocommWiFiCredentials: Hashable, Sendable {
    /// Longest SSID the device stores (802.11 limit).
    public static let maximumSSIDLength = 32
    /// Longest passphrase the device stores: its buffer is 64 bytes including the terminator, so a
    /// 64-hex-digit raw PSK does not fit.
    public static let maximumPassphraseLength = 63

    /// The SSID's raw bytes.
    public let ssid: [UInt8]
    /// The passphrase's raw bytes; empty for an open network.
    public let passphrase: [UInt8]
    /// Six bytes, or empty. The stock firmware accepts but ignores it.
    public let bssid: [UInt8]
    /// 0 for "any". The stock firmware accepts but ignores it.
    public let channel: Int32

    /// Checks the lengths the device enforces, so a bad value fails here rather than as `InvalidArgument`.
    public init(ssid: [UInt8], passphrase: [UInt8], bssid: [UInt8] = [], channel: Int32 = 0) throws(ProtocommError) {
        guard (1...Self.maximumSSIDLength).contains(ssid.count) else { throw .invalidSSIDLength(ssid.count) }
        guard passphrase.count <= Self.maximumPassphraseLength else {
            throw .invalidPassphraseLength(passphrase.count)
        }
        guard bssid.isEmpty || bssid.count == 6 else { throw .invalidBSSIDLength(bssid.count) }
        self.ssid = ssid
        self.passphrase = passphrase
        self.bssid = bssid
        self.channel = channel
    }

    /// Text SSID and passphrase, sent as UTF-8.
    public init(ssid: String, passphrase: String) throws(ProtocommError) {
        try self.init(ssid: Array(ssid.utf8), passphrase: Array(passphrase.utf8))
    }
}
