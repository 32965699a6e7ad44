public import BluFi

/// What a successful BluFi provisioning established, and what it cost on the link.
public struct BluFiProvisioningOutcome: Sendable, Equatable {
    /// The report that showed success (station connected, or SoftAP running), without passwords.
    public var report: BluFiWiFiReport
    /// The device ID, when the device sent one.
    public var deviceID: String?
    /// The security actually used.
    public var security: BluFiSecurityScheme
    /// The scheme automatic security tried first and the device rejected, when ``security`` is a fallback.
    public var rejectedScheme: BluFiSecurityScheme?
    /// The BluFi version the device reported; `nil` when it did not answer GET_VERSION.
    public var deviceVersion: BluFiVersion?
    /// Frames and bytes in each direction (of the last connection), for benchmarks across MTUs and schemes.
    public var traffic: BluFiTraffic

    /// An outcome as the flow assembles it.
    public init(
        report: BluFiWiFiReport,
        deviceID: String?,
        security: BluFiSecurityScheme,
        deviceVersion: BluFiVersion?,
        traffic: BluFiTraffic
    ) {
        self.report = report
        self.deviceID = deviceID
        self.security = security
        self.deviceVersion = deviceVersion
        self.traffic = traffic
    }
}

/// The device's answer to a Wi-Fi scan, for `--list-networks`.
public struct BluFiNetworkList: Sendable, Equatable {
    /// What the device found, strongest first; empty when it found nothing (it then stays silent).
    public var accessPoints: [BluFiAccessPoint]
    /// The security actually used.
    public var security: BluFiSecurityScheme
    /// The BluFi version the device reported, if it answered.
    public var deviceVersion: BluFiVersion?
    /// Frames and bytes in each direction.
    public var traffic: BluFiTraffic

    /// A scan result as the flow assembles it.
    public init(
        accessPoints: [BluFiAccessPoint],
        security: BluFiSecurityScheme,
        deviceVersion: BluFiVersion?,
        traffic: BluFiTraffic
    ) {
        self.accessPoints = accessPoints
        self.security = security
        self.deviceVersion = deviceVersion
        self.traffic = traffic
    }
}

/// Counts of what crossed the link in one session.
public struct BluFiTraffic: Sendable, Equatable {
    /// The ATT MTU the session fragmented for.
    public var mtu: Int
    /// ATT writes (one frame each).
    public var framesWritten = 0
    /// Bytes in those writes, frame headers and checksums included.
    public var bytesWritten = 0
    /// Notifications (one frame each).
    public var framesReceived = 0
    /// Bytes in those notifications.
    public var bytesReceived = 0
    /// GET_WIFI_STATUS polls sent while the join ran.
    public var statusPolls = 0

    /// Nothing counted yet, on a link with this ATT MTU.
    public init(mtu: Int) {
        self.mtu = mtu
    }
}
