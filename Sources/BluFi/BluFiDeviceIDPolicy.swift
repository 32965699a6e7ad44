/// Whether a provisioning waits for the device ID, the first custom data a Zhiting device sends once
/// it joined (a stock ESP-IDF example never sends one).
public enum BluFiDeviceIDPolicy: Sendable, Hashable {
    /// Report success as soon as the network is joined; an ID that already arrived is still taken.
    case notAwaited
    /// Wait a short grace for the ID; without it the provisioning still succeeds, with no ID.
    case awaitedBriefly
    /// Success needs the ID (the LAN hand-off cannot go on without it).
    case required
}
