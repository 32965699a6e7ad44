public import Protocomm
public import Transports

/// One step of the SoftAP flow, reported as it happens.
///
/// The CLI renders these as progress lines and JSON events. No case carries a secret: SSIDs,
/// addresses and security levels only, never a password or proof of possession.
public enum SoftAPProgress: Sendable, Equatable {
    /// Asking the host to join the device's hotspot.
    case joiningHotspot(ssid: String)
    /// The host is on the hotspot.
    case joinedHotspot(JoinedWiFiNetwork)
    /// The device answered `proto-ver`.
    case deviceDescribed(ProtocommVersionInfo)
    /// The session's security is settled (from `proto-ver`, or as the caller forced it).
    case securityChosen(SoftAPSecurityUsed)
    /// The handshake finished; later payloads are encrypted.
    case sessionEstablished(ProtocommSecurityLevel)
    /// The device is scanning for networks.
    case scanningNetworks
    /// The networks the device saw, strongest first.
    case networksListed([ProtocommWiFiNetwork])
    /// The request asked for a network list, but the device does not advertise `wifi_scan`.
    case scanUnavailable
    /// The device stored the network name and password.
    case credentialsSent(ssid: String)
    /// The device started joining the network.
    case credentialsApplied
    /// The device is still joining; `attemptsRemaining` is set by firmware with limited retries.
    /// Reported when the poll's answer changes, not on every poll.
    case deviceConnecting(attemptsRemaining: UInt32?)
    /// The device joined the network and has an address.
    case deviceConnected(SoftAPDeviceConnection)
    /// After a failed join, `prov-ctrl` reset made the device ready for new credentials.
    case deviceReset
    /// After a failed join the device could not be reset (no `prov-ctrl`, or it refused).
    case deviceResetUnavailable
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
