public import Transports

/// One step of the SoftAP flow, reported as it happens: the hotspot around the protocomm conversation.
///
/// The CLI renders these as progress lines and JSON events. No case carries a secret: SSIDs,
/// addresses and security levels only, never a password or proof of possession.
public enum SoftAPProgress: Sendable, Equatable {
    /// Asking the host to join the device's hotspot.
    case joiningHotspot(ssid: String)
    /// The host is on the hotspot.
    case joinedHotspot(JoinedWiFiNetwork)
    /// A step of the protocomm conversation with the device.
    case protocomm(ProtocommProgress)
    /// Leaving the hotspot and bringing back the host's previous network.
    case leavingHotspot(ssid: String)
    /// The host is back on the network it used before (or on none, if it had none).
    case leftHotspot(ssid: String)
    /// Leaving or restoring failed while another error was already on its way; that error is
    /// the one thrown, and this one says how to restore the network by hand.
    case restoreFailed(ProvisioningError)
}

/// Where the SoftAP flow reports its progress.
public typealias SoftAPProgressSink = @Sendable (SoftAPProgress) -> Void
