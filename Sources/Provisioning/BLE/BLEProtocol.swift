import BluFi
import Improv
import Protocomm
public import Transports

/// A provisioning protocol ztprov speaks over BLE, as scanning and detection know it: its name, its
/// service and what it advertises. `ztprov ble --protocol` names one, or auto detection picks it from what
/// the device advertises and, failing that, from its GATT database.
///
/// The protocols are those ``registered`` holds; a protocol is added by its ``BLEProvisioningFlow``
/// conformer and an entry there.
public struct BLEProtocol: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The name `--protocol` takes and JSON carries.
    public let rawValue: String
    /// The protocol's name for people.
    public let description: String
    /// The primary service the protocol runs on, normalized.
    public let serviceUUID: String
    /// Service-data UUIDs whose presence in an advertisement marks the protocol, normalized.
    public let serviceDataUUIDs: [String]
    /// Finds the protocol on a connected device whose database lacks ``serviceUUID`` (firmware with a
    /// service of its own), from what the device advertised; reads by the deadline.
    let recognisesServing:
        (@Sendable (any GATTConnection, _ advertised: [String], ContinuousClock.Instant) async throws -> Bool)?

    public init(
        rawValue: String, description: String, serviceUUID: String, serviceDataUUIDs: [String] = [],
        recognisesServing: (
            @Sendable (any GATTConnection, _ advertised: [String], ContinuousClock.Instant) async throws -> Bool
        )? = nil
    ) {
        self.rawValue = rawValue
        self.description = description
        self.serviceUUID = BluetoothUUID.normalized(serviceUUID)
        self.serviceDataUUIDs = serviceDataUUIDs.map(BluetoothUUID.normalized)
        self.recognisesServing = recognisesServing
    }

    /// The registered protocol named `rawValue`, if any.
    public init?(rawValue: String) {
        guard let known = Self.registered.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = known
    }

    public static func == (lhs: BLEProtocol, rhs: BLEProtocol) -> Bool { lhs.rawValue == rhs.rawValue }

    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Espressif's BluFi on service FFFF.
    public static let bluFi = BLEProtocol(
        rawValue: "blufi", description: "BluFi", serviceUUID: BluFiGATTProfile.serviceUUID)

    /// Improv Wi-Fi (ESPHome, WLED and others) on its 128-bit service.
    public static let improv = BLEProtocol(
        rawValue: "improv", description: "Improv", serviceUUID: ImprovGATTProfile.serviceUUID,
        serviceDataUUIDs: [ImprovGATTProfile.serviceDataUUID])

    /// ESP provisioning (`network_provisioning`, `wifi_provisioning`): protocomm on a 128-bit service,
    /// ESP-IDF's default one unless the firmware chose its own (then found by its endpoint names).
    public static let protocomm = BLEProtocol(
        rawValue: "protocomm", description: "ESP protocomm", serviceUUID: ProtocommGATTProfile.defaultServiceUUID
    ) { connection, advertised, deadline in
        try await ProtocommGATTEndpoints.locate(on: connection, advertised: advertised, until: deadline) != nil
    }

    /// The protocols ztprov speaks, in the order detection tries them; a test may run with more.
    @TaskLocal public static var registered: [BLEProtocol] = [.bluFi, .improv, .protocomm]

    /// Every registered protocol.
    public static var allCases: [BLEProtocol] { registered }

    /// Every protocol's service UUID, for a scan that should find devices of any of them.
    public static var serviceUUIDs: [String] { allCases.map(\.serviceUUID) }

    /// The protocol an advertisement announces (service UUIDs, then service-data UUIDs), if any.
    ///
    /// A device advertising two protocols' services counts as the first in ``allCases``.
    public static func advertised(serviceUUIDs: [String], serviceData: [String: [UInt8]]) -> BLEProtocol? {
        let advertised = Set(serviceUUIDs.map(BluetoothUUID.normalized))
        let dataKeys = Set(serviceData.keys.map(BluetoothUUID.normalized))
        return allCases.first { advertised.contains($0.serviceUUID) }
            ?? allCases.first { !dataKeys.isDisjoint(with: $0.serviceDataUUIDs) }
    }

    /// The protocol whose service a connected device's GATT database holds, if any.
    public static func offered(by services: [GATTService]) -> BLEProtocol? {
        let uuids = Set(services.map(\.uuid))
        return allCases.first { uuids.contains($0.serviceUUID) }
    }

    /// The protocol a connected device serves: a known service UUID, else the first protocol that
    /// recognises the device's own service (protocomm by its endpoints' user descriptions). Reads by
    /// `deadline`.
    public static func detected(
        on connection: any GATTConnection, advertised: [String] = [], until deadline: ContinuousClock.Instant
    ) async throws -> BLEProtocol? {
        if let offered = offered(by: connection.services) { return offered }
        for candidate in allCases {
            if let recognises = candidate.recognisesServing, try await recognises(connection, advertised, deadline) {
                return candidate
            }
        }
        return nil
    }
}
