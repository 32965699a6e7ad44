import BluFi
import Protocomm
import Records
import Transports

/// Step boundaries and learned facts, read off the flows' own progress events, so records time the
/// same steps the progress lines show and failed attempts keep what they learned.
extension BatchAttemptJournal {
    /// Notes a BluFi event: negotiate, configure, join and device-id steps, version and security.
    public func note(_ progress: BluFiProgress) {
        switch progress {
        case .sessionStarted: began("negotiate")
        case .versionReceived(let version): learned(firmware: FirmwareVersions(bluFi: "\(version)"))
        case .sessionReady(let scheme):
            negotiated(security: scheme.displayName, as: ProvisioningSecurity(scheme))
            began("configure")
        case .joinRequested, .softAPConfigurationSent: began("join")
        case .wifiConnected, .softAPStarted: began("device-id")
        case .deviceIDReceived(let id): learned(deviceID: id)
        case .disconnectRequested: began("disconnect")
        default: break
        }
    }

    /// Notes a SoftAP event: join-hotspot, session, configure, join and leave steps, version and security.
    public func note(_ progress: SoftAPProgress) {
        switch progress {
        case .joiningHotspot: began("join-hotspot")
        case .joinedHotspot(let network):
            found(address: network.bssid)
            if let id = network.zhitingDeviceID { learned(deviceID: id) }
            began("session")
        case .protocomm(let step): note(step)
        case .leavingHotspot: began("leave-hotspot")
        default: break
        }
    }

    /// Notes a protocomm step: version, security, configure and join.
    public func note(_ progress: ProtocommProgress) {
        switch progress {
        case .deviceDescribed(let info): learned(firmware: FirmwareVersions(protocomm: info.version))
        case .securityChosen(let security):
            let patch = security.patch.map { " patch \($0.rawValue)" } ?? ""
            negotiated(security: "sec\(security.level.rawValue)\(patch)", as: ProvisioningSecurity(security))
        case .credentialsSent: began("configure")
        case .credentialsApplied: began("join")
        default: break
        }
    }
}
