import BluFi
import Improv
import Protocomm
public import Transports

/// The provisioning protocols ztprov speaks over BLE. `ztprov ble --protocol` names one, or auto
/// detection picks it from what the device advertises and, failing that, from its GATT database.
///
/// A protocol is added as a case here: its service UUID and what it advertises are all detection needs.
public enum BLEProtocol: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Espressif's BluFi on service FFFF.
    case bluFi = "blufi"
    /// Improv Wi-Fi (ESPHome, WLED and others) on its 128-bit service.
    case improv
    /// ESP provisioning (`network_provisioning`, `wifi_provisioning`): protocomm on a 128-bit service,
    /// ESP-IDF's default one unless the firmware chose its own (then found by its endpoint names).
    case protocomm

    /// The primary service the protocol runs on, normalized.
    public var serviceUUID: String {
        switch self {
        case .bluFi: BluetoothUUID.normalized(BluFiGATTProfile.serviceUUID)
        case .improv: BluetoothUUID.normalized(ImprovGATTProfile.serviceUUID)
        case .protocomm: ProtocommGATTProfile.defaultServiceUUID
        }
    }

    /// Service-data UUIDs whose presence in an advertisement marks the protocol, normalized.
    public var serviceDataUUIDs: [String] {
        switch self {
        case .bluFi, .protocomm: []
        case .improv: [BluetoothUUID.normalized(ImprovGATTProfile.serviceDataUUID)]
        }
    }

    /// The protocol's name for people.
    public var description: String {
        switch self {
        case .bluFi: "BluFi"
        case .improv: "Improv"
        case .protocomm: "ESP protocomm"
        }
    }

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

    /// The protocol a connected device serves: a known service UUID, else a service whose user
    /// descriptions name protocomm's endpoints (firmware with its own service UUID). Reads descriptors by
    /// `deadline`.
    public static func detected(
        on connection: any GATTConnection, advertised: [String] = [], until deadline: ContinuousClock.Instant
    ) async throws -> BLEProtocol? {
        if let offered = offered(by: connection.services) { return offered }
        let endpoints = try await ProtocommGATTEndpoints.locate(on: connection, advertised: advertised, until: deadline)
        return endpoints == nil ? nil : .protocomm
    }
}
