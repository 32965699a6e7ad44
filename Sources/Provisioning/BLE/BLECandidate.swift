/// A device the scan heard that `ble` could provision: what the choice, the picker and a refusal show of it.
public struct BLECandidate: Sendable, Hashable {
    public let address: String
    /// The advertised name, as the device sent it (not yet made printable).
    public let name: String?
    /// The latest signal strength, in dBm.
    public let rssi: Int?
    /// The protocol the advertisement announces, if it announces one.
    public let advertisedProtocol: BLEProtocol?
    /// The protocol's advertised state in words (Improv's), if it advertises one.
    public let state: String?

    public init(
        address: String, name: String?, rssi: Int?, advertisedProtocol: BLEProtocol? = nil, state: String? = nil
    ) {
        self.address = address
        self.name = name
        self.rssi = rssi
        self.advertisedProtocol = advertisedProtocol
        self.state = state
    }

    /// `MH-D4E5F6 (24:0A:C4:12:34:56, -48 dBm, blufi)`, the name cut at `nameLimit` characters.
    public func label(nameLimit: Int = 32) -> String {
        var details = [address]
        if let rssi { details.append("\(rssi) dBm") }
        if let advertisedProtocol { details.append(advertisedProtocol.rawValue) }
        if let state { details.append(state) }
        return "\(Self.shortened(name ?? "unnamed", to: nameLimit)) (\(details.joined(separator: ", ")))"
    }

    /// At most `limit` characters, the last one `…` when cut: a name is a device's to choose, up to 248 bytes.
    public static func shortened(_ text: String, to limit: Int) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }
}
