public import Protocomm

/// One step of a protocomm conversation, over whichever transport carries it, reported as it happens.
///
/// No case carries a secret: SSIDs, addresses and security levels only, never a password or proof
/// of possession.
public enum ProtocommProgress: Sendable, Equatable {
    /// The device answered `proto-ver`.
    case deviceDescribed(ProtocommVersionInfo)
    /// The session's security is settled (from `proto-ver`, or as the caller forced it).
    case securityChosen(ProtocommSecurityUsed)
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
    case deviceConnected(ProtocommDeviceConnection)
    /// After a failed join, `prov-ctrl` reset made the device ready for new credentials.
    case deviceReset
    /// After a failed join the device could not be reset (no `prov-ctrl`, or it refused).
    case deviceResetUnavailable
    /// New credentials go to the reset device; `attempt` counts from 1 for the first credentials.
    case retryingCredentials(attempt: Int)
    /// The Thread networks the device hears, as it listed them.
    case threadNetworksListed([ProtocommThreadNetwork])
    /// The device stored the Thread dataset; only the network's public identity is reported.
    case datasetSent(ThreadNetworkIdentity)
    /// The device started attaching with the dataset.
    case datasetApplied
    /// The device is still attaching; reported once.
    case deviceAttaching
    /// The device attached to the Thread network.
    case deviceAttached(ProtocommThreadAttachment)
}

/// Where a protocomm conversation reports its progress.
public typealias ProtocommProgressSink = @Sendable (ProtocommProgress) -> Void
