public import BluFi

/// One step of the BluFi flow, reported as it happens.
///
/// The CLI renders these as progress lines and JSON events. No case carries a secret: reports come
/// with their password fields removed, and SSIDs are not secret.
public enum BluFiProgress: Sendable, Equatable, CustomStringConvertible {
    /// The session starts on a link with this ATT MTU: GET_VERSION goes out.
    case sessionStarted(mtu: Int)
    /// The device answered GET_VERSION.
    case versionReceived(BluFiVersion)
    /// The device did not answer GET_VERSION in time; automatic security assumes V1.
    case versionUnavailable
    /// The device rejected the scheme automatic security chose; the flow reconnects and uses the other.
    case securityFellBack(from: BluFiSecurityScheme, to: BluFiSecurityScheme, reason: String)
    /// The key exchange for this scheme started.
    case negotiationStarted(BluFiSecurityScheme)
    /// Security is settled (negotiated, or none); requests go out from here.
    case sessionReady(BluFiSecurityScheme)
    /// The device acknowledged the Wi-Fi mode.
    case operationModeSet(BluFiOperationMode)
    /// The station's SSID (and password) are sent and CONNECT_AP went out.
    case joinRequested(ssid: String)
    /// The SoftAP settings are sent.
    case softAPConfigurationSent
    /// The join is under way: the device is connecting, or associated and waiting for an address.
    case wifiStatusChanged(BluFiWiFiReport)
    /// The station joined the network and holds an IP address.
    case wifiConnected(BluFiWiFiReport)
    /// The device's own access point runs.
    case softAPStarted(BluFiWiFiReport)
    /// The device sent its ID.
    case deviceIDReceived(String)
    /// The device sent no ID within the grace after joining; the run goes on without one.
    case deviceIDMissing
    /// The device was asked to scan for networks.
    case wifiListRequested
    /// The scan results arrived, strongest first (none when the device stayed silent until the deadline).
    case wifiListReceived([BluFiAccessPoint])
    /// DISCONNECT_BLE went out; the device closes the link.
    case disconnectRequested

    /// One line for a person.
    public var description: String {
        switch self {
        case .sessionStarted(let mtu): "BluFi session started (ATT MTU \(mtu))"
        case .versionReceived(let version): "device runs BluFi \(version)"
        case .versionUnavailable: "device did not report its BluFi version; assuming 1.3"
        case .securityFellBack(let from, let to, let reason):
            "\(reason) Falling back to \(to.displayName) on a new connection, as --security auto allows "
                + "(firmware on BluFi 1.4 may keep \(to.displayName) security instead of \(from.displayName))"
        case .negotiationStarted(let scheme): "negotiating \(scheme.displayName) keys"
        case .sessionReady(let scheme): "session ready, security \(scheme.displayName)"
        case .operationModeSet(let mode): "Wi-Fi mode set to \(mode.displayName)"
        case .joinRequested(let ssid): "asked the device to join \"\(ssid)\""
        case .softAPConfigurationSent: "SoftAP settings sent"
        case .wifiStatusChanged(let report): "device joining: \(report)"
        case .wifiConnected(let report): "device joined the network (\(report))"
        case .softAPStarted(let report): "device access point running (\(report))"
        case .deviceIDReceived(let id): "device ID \(id)"
        case .deviceIDMissing: "device sent no device ID after joining"
        case .wifiListRequested: "device scanning for networks"
        case .wifiListReceived(let found): "device found \(found.count) network\(found.count == 1 ? "" : "s")"
        case .disconnectRequested: "asked the device to close the BLE link"
        }
    }
}

/// Where the BluFi flow reports its progress.
public typealias BluFiProgressSink = @Sendable (BluFiProgress) -> Void

extension BluFiSecurityScheme {
    /// `none`, `V1`, `V2`: the spelling of `--security`.
    var displayName: String {
        switch self {
        case .none: "none"
        case .v1: "V1"
        case .v2: "V2"
        }
    }
}

extension BluFiOperationMode {
    /// The spelling of `--mode`, which the JSON output uses too.
    public var displayName: String {
        switch self {
        case .null: "off"
        case .station: "sta"
        case .softAP: "softap"
        case .stationAndSoftAP: "sta+softap"
        }
    }
}

extension BluFiWiFiReport {
    /// The report without the passwords some firmware echoes, so it can travel in progress and outcomes.
    var withoutPasswords: BluFiWiFiReport {
        var report = self
        report.stationPassword = nil
        report.softAPPassword = nil
        return report
    }
}
