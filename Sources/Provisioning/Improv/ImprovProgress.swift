public import Improv

/// One step of the Improv flow, reported as it happens. No case carries the password.
public enum ImprovProgress: Sendable, Equatable, CustomStringConvertible {
    /// Notifications are on; capabilities and state are read next.
    case sessionStarted(mtu: Int)
    /// What the conversation heard from the device, networks sorted strongest first. The device asking
    /// for authorization comes as ``authorizationRequired(within:)`` instead, which adds the time allowed.
    case device(ImprovClientEvent)
    /// The device wants a person to authorize it (press its button) within `within`.
    case authorizationRequired(within: Duration)
    /// The SSID and password are sent; the device tries to join.
    case joinRequested(ssid: String)

    public var description: String {
        switch self {
        case .sessionStarted(let mtu): "Improv session on a link with ATT MTU \(mtu)"
        case .device(let event): Self.describe(event)
        case .authorizationRequired(let within):
            "the device needs authorization: press its button (or do what its manual says) within "
                + "\(within.components.seconds) s"
        case .joinRequested(let ssid): "sent the settings for \(ssid); the device is joining"
        }
    }

    private static func describe(_ event: ImprovClientEvent) -> String {
        switch event {
        case .connected(let state, let capabilities): "device state: \(state); supports: \(capabilities)"
        case .authorizationRequired: "the device needs authorization"
        case .authorized: "device authorized"
        case .stateChanged(let state): "device is now \(state)"
        case .identifySent: "asked the device to identify itself"
        case .deviceInfo(let info):
            "device \(info.deviceName): \(info.firmwareName) \(info.firmwareVersion) on \(info.hardware)"
        case .networks(let found): "the device sees \(found.count) network\(found.count == 1 ? "" : "s")"
        case .hostname(let name): "hostname is \(name)"
        case .deviceName(let name): "device name is \(name)"
        case .provisioned(let url): "device joined the network" + (url.map { "; continue at \($0)" } ?? "")
        }
    }
}
