public import Transports
public import ZhitingLAN

/// One step of a LAN flow, reported as it happens.
///
/// The CLI renders these as progress lines and JSON events. No case carries a secret.
public enum LANProgress: Sendable, Equatable {
    /// A hello went out (the first, or a repeat after silence).
    case helloSent(to: DatagramDestination, attempt: Int)
    /// A device answered the hello.
    case deviceAnswered(LANDevice)
    /// A request got no answer in time and was sent again.
    case requestResent(ZhitingDeviceID, attempt: Int)
    /// The key exchange succeeded.
    case tokenReceived(ZhitingDeviceID)
    /// The device described itself.
    case infoReceived(ZhitingDeviceID, ZhitingDeviceInfo)
    /// `set_prop.server` went out.
    case serverRequested(ZhitingDeviceID, server: String, port: Int)
    /// The device echoed the server and port.
    case serverConfirmed(ZhitingDeviceID, ZhitingServerEcho)
}

/// Where a flow reports its progress.
public typealias LANProgressSink = @Sendable (LANProgress) -> Void
