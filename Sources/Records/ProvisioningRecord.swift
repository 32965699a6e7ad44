public import FoundationEssentials

/// One provisioning attempt as the factory line keeps it: who, where, how, how long, and how it ended.
///
/// A record never holds a secret: no Wi-Fi or hotspot password, proof of possession or token goes in,
/// so the database and its exports can be shared with whoever reads yields and failure reasons.
public struct ProvisioningRecord: Sendable, Equatable, Codable {
    /// The batch run the attempt belongs to; a resumed batch keeps its ID.
    public var batchID: String
    /// The station (one host of the line) that made the attempt.
    public var station: String
    /// The lane that made it: a Bluetooth adapter (hci1) or a Wi-Fi interface (wlan0).
    public var adapter: String
    /// How the batch input named the device (address, advertised name or hotspot SSID); resume and
    /// `--force` decisions are keyed on it.
    public var deviceKey: String
    /// The device's BLE address, or its access point's BSSID, once known.
    public var address: String?
    /// The device ID the device reported, once known.
    public var deviceID: String?
    public var path: ProvisioningPath
    /// The security used, as the commands print it (`v2`, `sec2 patch 1`).
    public var security: String?
    /// 1 for the first attempt at this device in this batch, counting up with each retry.
    public var attempt: Int
    /// True for the attempt that settled the device: a success, or a failure not retried further.
    public var isFinal: Bool
    /// `ok`, or the stable error code (`ble.connect-aborted`, `protocomm.wrong-pop`, `batch.interrupted`).
    public var code: String
    /// The error message shown to the operator; nil on success.
    public var message: String?
    public var startedAt: Date
    public var finishedAt: Date
    /// How long each step took, in the order they ran.
    public var steps: [RecordedStep]
    public var firmware: FirmwareVersions
    /// The protocol that ran (`blufi`, `protocomm`, `improv`); nil in records written before it was kept.
    public var provisioningProtocol: String?
    /// The security the attempt negotiated, as typed; nil when it did not get that far, and in records written
    /// before it was kept.
    public var securedWith: ProvisioningSecurity?

    /// The code a successful attempt records.
    public static let successCode = "ok"

    /// True when the attempt provisioned the device.
    public var succeeded: Bool { code == Self.successCode }

    public init(
        batchID: String, station: String, adapter: String, deviceKey: String, address: String? = nil,
        deviceID: String? = nil, path: ProvisioningPath, security: String? = nil, attempt: Int, isFinal: Bool,
        code: String, message: String? = nil, startedAt: Date, finishedAt: Date, steps: [RecordedStep] = [],
        firmware: FirmwareVersions = FirmwareVersions(), provisioningProtocol: String? = nil,
        securedWith: ProvisioningSecurity? = nil
    ) {
        self.batchID = batchID
        self.station = station
        self.adapter = adapter
        self.deviceKey = deviceKey
        self.address = address
        self.deviceID = deviceID
        self.path = path
        self.security = security
        self.attempt = attempt
        self.isFinal = isFinal
        self.code = code
        self.message = message
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.steps = steps
        self.firmware = firmware
        self.provisioningProtocol = provisioningProtocol
        self.securedWith = securedWith
    }
}
