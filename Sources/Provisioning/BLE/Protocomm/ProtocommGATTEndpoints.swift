import Protocomm
public import Transports

/// The protocomm service on a connected peer and the characteristic of each endpoint.
public struct ProtocommGATTEndpoints: Sendable, Equatable {
    /// How the endpoints were matched to characteristics.
    public enum Naming: Sendable, Equatable {
        /// By the characteristics' user descriptions (0x2901), as current firmware names them.
        case userDescriptions
        /// By the 16-bit endpoint numbers in the service UUID, for firmware without descriptions.
        case endpointNumbers
    }

    /// The provisioning service's UUID.
    public let serviceUUID: String
    /// The characteristic for each endpoint name.
    public let characteristics: [String: GATTCharacteristic]
    /// How the names were matched.
    public let naming: Naming

    /// The endpoint names, sorted, for messages and records.
    public var names: [String] { characteristics.keys.sorted() }

    /// Finds the protocomm service on `connection`: the advertised 128-bit service if it has the
    /// endpoints, else any service whose user descriptions name them, else the advertised (or default)
    /// service reached through the endpoint numbers. `nil` when the peer has no protocomm service.
    ///
    /// Reads every user description of the candidate services by `deadline`; throws what the connection
    /// throws.
    public static func locate(
        on connection: any GATTConnection, advertised: [String] = [], until deadline: ContinuousClock.Instant
    ) async throws -> ProtocommGATTEndpoints? {
        let advertised = advertised.map(BluetoothUUID.normalized)
        let candidates = connection.services.filter { !isStandard($0.uuid) }
        let ordered =
            candidates.filter { advertised.contains($0.uuid) } + candidates.filter { !advertised.contains($0.uuid) }
        for service in ordered {
            let named = try await namedCharacteristics(of: service, on: connection, until: deadline)
            if ProtocommGATTProfile.requiredEndpoints.allSatisfy({ named[$0] != nil }) {
                return ProtocommGATTEndpoints(
                    serviceUUID: service.uuid, characteristics: named, naming: .userDescriptions)
            }
        }
        let fallbacks = advertised + [ProtocommGATTProfile.defaultServiceUUID]
        for uuid in fallbacks {
            guard let service = candidates.first(where: { $0.uuid == uuid }),
                let numbered = numberedCharacteristics(of: service)
            else { continue }
            return ProtocommGATTEndpoints(
                serviceUUID: service.uuid, characteristics: numbered, naming: .endpointNumbers)
        }
        return nil
    }

    /// The characteristics whose user description is an endpoint name; the first one wins a name used twice.
    static func namedCharacteristics(
        of service: GATTService, on connection: any GATTConnection, until deadline: ContinuousClock.Instant
    ) async throws -> [String: GATTCharacteristic] {
        var named: [String: GATTCharacteristic] = [:]
        for characteristic in service.characteristics {
            guard let descriptor = characteristic.descriptor(GATTDescriptor.userDescriptionUUID) else { continue }
            let value = try await connection.read(descriptor, until: deadline)
            guard let name = ProtocommGATTProfile.endpointName(userDescription: value), named[name] == nil else {
                continue
            }
            named[name] = characteristic
        }
        return named
    }

    /// The standard endpoints found through their numbers, if all the required ones are there.
    static func numberedCharacteristics(of service: GATTService) -> [String: GATTCharacteristic]? {
        var numbered: [String: GATTCharacteristic] = [:]
        for (name, number) in ProtocommGATTProfile.endpointNumbers {
            guard let uuid = ProtocommGATTProfile.characteristicUUID(number: number, serviceUUID: service.uuid),
                let characteristic = service.characteristic(uuid)
            else { continue }
            numbered[name] = characteristic
        }
        guard ProtocommGATTProfile.requiredEndpoints.allSatisfy({ numbered[$0] != nil }) else { return nil }
        return numbered
    }

    /// Services on the Bluetooth base UUID (GAP, GATT, Device Information, BluFi's FFFF…) are never protocomm's.
    private static func isStandard(_ uuid: String) -> Bool {
        uuid.hasSuffix("-0000-1000-8000-00805f9b34fb")
    }
}
