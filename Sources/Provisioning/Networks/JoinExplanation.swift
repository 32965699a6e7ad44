/// What a device's scan says about a network it was asked to join: the reasoning behind every failed or
/// silent join's explanation, and behind `--check-network`. Pure: a scan and the request in, a verdict out.
public enum JoinExplanation: Sendable, Equatable {
    /// The device does not hear the SSID: out of range, 5 GHz only, hidden, or misspelt.
    case notHeard
    /// It hears the network open, and a password was given.
    case heardOpen
    /// It hears the network secured, and no password was given.
    case heardSecured
    /// It hears the network as 802.1X enterprise, which takes no password alone.
    case heardEnterprise
    /// It hears the network, at most this strong, below ``HeardNetwork/weakSignal``.
    case heardWeakly(rssi: Int)
    /// It hears the network well, with the security asked for: the scan does not explain a failure.
    case heardWell(rssi: Int)

    /// The verdict on joining `ssid` (pinned to `bssid` if given) with a password or none, from `heard`.
    /// A security mismatch counts only when every access point of the name agrees on it.
    public init(ssid: String, passwordGiven: Bool, bssid: [UInt8]? = nil, heard: [HeardNetwork]) {
        let matching = heard.filter { $0.isNetwork(ssid, bssid: bssid) }
        guard let strongest = matching.map(\.rssi).max() else {
            self = .notHeard
            return
        }
        let securities = Set(matching.compactMap(\.security))
        if securities == [.enterprise] {
            self = .heardEnterprise
        } else if passwordGiven, securities == [.open] {
            self = .heardOpen
        } else if !passwordGiven, !securities.isEmpty, !securities.contains(.open) {
            self = .heardSecured
        } else if strongest < HeardNetwork.weakSignal {
            self = .heardWeakly(rssi: strongest)
        } else {
            self = .heardWell(rssi: strongest)
        }
    }

    /// Whether the join certainly fails whatever the radio does, so a check before sending refuses.
    public var certainlyFails: Bool {
        switch self {
        case .heardSecured, .heardEnterprise: true
        case .notHeard, .heardOpen, .heardWeakly, .heardWell: false
        }
    }

    /// One sentence on what the scan shows, naming the network as `network`.
    func sentence(_ network: String, hidden: Bool) -> String {
        switch self {
        case .notHeard where hidden:
            "The device's scan does not list \(network), as expected of a network that hides its name."
        case .notHeard:
            "The device does not hear \(network): it is out of range, 5 GHz only, or hides its name."
        case .heardOpen: "The device hears \(network) as an open network, but a password was given."
        case .heardSecured: "The device hears \(network) as a secured network, but no password was given."
        case .heardEnterprise:
            "The device hears \(network) as an enterprise (802.1X) network, which takes more than a password."
        case .heardWeakly(let rssi): "The device hears \(network) only weakly (\(rssi) dBm)."
        case .heardWell(let rssi): "The device hears \(network) well (\(rssi) dBm)."
        }
    }

    /// What to do about it; nil where the scan adds nothing to the failure's own hint.
    func hint(hidden: Bool) -> String? {
        switch self {
        case .notHeard where hidden: nil
        case .notHeard:
            "Check the SSID's spelling, that the network has a 2.4 GHz band and is in range of the device; "
                + "for a network that hides its name, pass --hidden."
        case .heardOpen: "Run again with --open-network instead of a password."
        case .heardSecured: "Give the network's password (--password-file or --password-env)."
        case .heardEnterprise: "Provision the device onto a WPA-Personal network; 802.1X cannot be sent."
        case .heardWeakly: "Move the device closer to the access point, or the access point closer, and retry."
        case .heardWell: nil
        }
    }
}
