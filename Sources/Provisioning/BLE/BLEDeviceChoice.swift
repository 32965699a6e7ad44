/// The rule that settles which device `ble` provisions, so that no run provisions a device the command
/// did not choose: pure, candidates and policy in, decision out.
public enum BLEDeviceChoice {
    /// What to do with the devices heard so far.
    public enum Decision: Sendable, Equatable {
        /// Nothing heard yet: keep scanning.
        case keepScanning
        /// This device, and connect.
        case connect(BLECandidate)
        /// Several match and a person at the terminal chooses; strongest first.
        case ask([BLECandidate])
        /// Several match, nobody can be asked and no policy chose: fail before connecting.
        case refuse(ProvisioningError)
    }

    /// How long the scan keeps listening for other devices after it heard the first one, unless the policy
    /// decides on the first sighting. ESP-IDF's BluFi, NimBLE and ESPHome firmware advertise every 20–100 ms
    /// and bluetoothd's LE discovery scans about half of the time, so a device in range is heard well within
    /// it; every run that names no device pays it once.
    public static let listening: Duration = .seconds(1)

    /// The decision on `candidates` (in the order they were first heard) under `policy`; `interactive`
    /// says whether a person can be asked.
    public static func decide(
        _ candidates: [BLECandidate], policy: BLEDevicePolicy, interactive: Bool
    ) -> Decision {
        guard let first = candidates.first else { return .keepScanning }
        let ranked = ranked(candidates)
        switch policy {
        case .named, .first: return .connect(first)
        case .strongest: return .connect(ranked[0])
        case .unchosen:
            guard candidates.count > 1 else { return .connect(first) }
            return interactive ? .ask(ranked) : .refuse(refusal(listing: ranked))
        }
    }

    /// Strongest signal first (unknown last), then by address, so the order is the same on every run.
    public static func ranked(_ candidates: [BLECandidate]) -> [BLECandidate] {
        candidates.sorted { ($0.rssi ?? .min, $1.address) > ($1.rssi ?? .min, $0.address) }
    }

    /// `ble.several-devices`, listing the candidates (strongest first).
    public static func refusal(listing ranked: [BLECandidate]) -> ProvisioningError {
        ProvisioningError(
            .bleSeveralDevices,
            "\(ranked.count) devices match and none was chosen: "
                + ranked.map { $0.label() }.joined(separator: "; ") + ".",
            hint: "Name one with --device ADDRESS, narrow with --name-prefix, or pass --pick strongest or "
                + "--pick first; on a terminal ztprov asks which one.")
    }
}
