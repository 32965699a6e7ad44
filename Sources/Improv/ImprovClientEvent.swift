/// Progress and answers a conversation reports, in the order they happen.
public enum ImprovClientEvent: Sendable, Hashable {
    /// Capabilities and state were read after connecting.
    case connected(state: ImprovState, capabilities: ImprovCapabilities)
    /// The next request needs authorization: the user must press the button (or whatever the device asks).
    case authorizationRequired
    /// The device is authorized now; the conversation goes on.
    case authorized
    /// Any other state change the device notified.
    case stateChanged(ImprovState)
    /// The identify command was written (it has no answer).
    case identifySent
    case deviceInfo(ImprovDeviceInfo)
    /// Every network of the scan, after the last result.
    case networks([ImprovWiFiNetwork])
    case hostname(String)
    case deviceName(String)
    /// The device joined the network; the redirect URL is where onboarding continues, if it gave one.
    case provisioned(redirectURL: String?)
}

/// What a conversation waits for after ``ImprovClient/Action/wait(for:)``: the flow picks the
/// timeout from it and calls ``ImprovClient/deadlinePassed()`` when it fires.
public enum ImprovAwaitedReply: Sendable, Hashable {
    /// A person has to authorize the device; give them a generous, announced deadline.
    case authorization
    /// The result of this command (for send Wi-Fi settings: the whole join attempt, tens of seconds).
    case result(ImprovCommand)
    /// More scan results; a device that sends all networks in one result sends no terminator, so
    /// a short quiet period ends the scan.
    case moreNetworks
}
