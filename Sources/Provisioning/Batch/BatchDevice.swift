public import Protocomm
import Records

/// One unit on the line, as a batch input line named it.
///
/// A BLE unit is found by its address or its exact advertised name; a SoftAP unit by its hotspot SSID.
/// The proof of possession may come per unit (printed on its label) and stays a ``Secret``.
public struct BatchDevice: Sendable, Equatable {
    public var address: String?
    public var name: String?
    public var hotspotSSID: String?
    public var proofOfPossession: Secret?
    /// The lane (adapter or Wi-Fi interface) the unit must use, when its fixture is wired to one.
    public var lane: String?
    /// The input line, for messages that send the operator back to it.
    public var line: Int
    /// Set for a BLE unit whose ESP provisioning QR payload named it: it runs protocomm over BLE, not BluFi.
    public var protocomm: BatchProtocommUnit?

    public init(
        address: String? = nil, name: String? = nil, hotspotSSID: String? = nil, proofOfPossession: Secret? = nil,
        lane: String? = nil, line: Int, protocomm: BatchProtocommUnit? = nil
    ) {
        self.address = address?.uppercased()
        self.name = name
        self.hotspotSSID = hotspotSSID
        self.proofOfPossession = proofOfPossession
        self.lane = lane
        self.line = line
        self.protocomm = protocomm
    }

    /// What records and resume decisions are keyed on: the address, else the name, else the SSID.
    public var key: String { address ?? name ?? hotspotSSID ?? "line \(line)" }

    /// True when the unit can be reached on `path`.
    func isAddressable(on path: ProvisioningPath) -> Bool {
        switch path {
        case .ble: address != nil || name != nil
        case .softAP: hotspotSSID != nil
        }
    }
}

/// What an ESP provisioning QR payload (`"transport":"ble"`) says about the unit's protocomm session; the
/// proof of possession or SRP password is the unit's ``BatchDevice/proofOfPossession``.
public struct BatchProtocommUnit: Sendable, Equatable {
    /// The security level, when the payload names one; otherwise `proto-ver` decides.
    public var security: ProtocommSecurityLevel?
    /// The security 2 SRP username, when the payload names one.
    public var username: String?

    public init(security: ProtocommSecurityLevel? = nil, username: String? = nil) {
        self.security = security
        self.username = username
    }
}
