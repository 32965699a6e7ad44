import Improv

/// What `ztprov ble` asks of an Improv device: optional commands first, the Wi-Fi settings last
/// (a provisioned device stops its Improv service).
///
/// The password stays a ``Secret`` until ``requests()`` builds the core's requests.
public struct ImprovSettings: Sendable, Equatable {
    /// The network to join; `nil` runs only the other commands.
    public var ssid: String?
    /// Empty for an open network.
    public var password: Secret
    /// Make the device blink or beep first (`--identify`).
    public var identifies: Bool
    /// Ask for the firmware, hardware and name (done when the device advertises it can answer).
    public var readsDeviceInfo: Bool
    /// Ask the device for the networks it sees (`--list-networks`).
    public var listsNetworks: Bool
    /// Have the device scan before the settings go, and refuse a network it does not hear (`--check-network`).
    public var checksNetwork = false
    /// The network does not broadcast its name (`--hidden`): a scan that misses it refuses nothing.
    public var hidden = false
    /// Set the device's hostname (`--hostname`).
    public var hostname: String?
    /// Set the device's name (`--device-name`).
    public var deviceName: String?

    public init(
        ssid: String?, password: Secret = Secret(""), identifies: Bool = false, readsDeviceInfo: Bool = false,
        listsNetworks: Bool = false, hostname: String? = nil, deviceName: String? = nil
    ) {
        self.ssid = ssid
        self.password = password
        self.identifies = identifies
        self.readsDeviceInfo = readsDeviceInfo
        self.listsNetworks = listsNetworks
        self.hostname = hostname
        self.deviceName = deviceName
    }

    /// The network as a scan judges it; nil when no network is sent.
    var join: NetworkJoin? {
        ssid.map { NetworkJoin(ssid: $0, passwordGiven: !password.isEmpty, hidden: hidden) }
    }

    /// The requests in the order they run; a value the core refuses is a usage error, before any write.
    func requests() throws(ProvisioningError) -> [ImprovRequest] {
        do throws(ImprovError) {
            var requests: [ImprovRequest] = []
            if identifies { requests.append(.identify) }
            if readsDeviceInfo { requests.append(.deviceInfo) }
            if listsNetworks || (checksNetwork && ssid != nil) { requests.append(.scanWiFiNetworks) }
            if let hostname { requests.append(.hostname(try ImprovRequest.validatedHostname(hostname))) }
            if let deviceName { requests.append(.deviceName(try ImprovRequest.validatedDeviceName(deviceName))) }
            if let ssid {
                let credentials = try ImprovCredentials(
                    ssid: Array(ssid.utf8), password: Array(password.revealed().utf8))
                requests.append(.sendWiFiSettings(credentials))
            }
            return requests
        } catch {
            throw ProvisioningError.improv(error, ImprovFailureContext(ssid: ssid, activity: "checking the settings"))
        }
    }
}
