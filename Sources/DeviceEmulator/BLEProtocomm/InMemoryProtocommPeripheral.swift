public import CryptoPrimitives
public import Protocomm
public import Transports

/// A connected ESP provisioning device in the same process, as `protocomm_ble` presents it: one service,
/// one characteristic per endpoint named by its user description (0x2901), a write handed to the
/// protocomm device and its reply kept for the read that follows; for flow tests and `ztprov demo`.
///
/// Like the firmware, it drops the link when the protocomm handler refuses a request, and keeps one
/// security session for the connection. With ``Options/requiresPairing`` every endpoint access fails
/// with ``Failure/insufficientSecurity`` until ``pair()``.
public actor InMemoryProtocommPeripheral: GATTConnection {
    /// How the peripheral is built.
    public struct Options: Sendable, Equatable {
        /// The provisioning service's UUID.
        public var serviceUUID: String
        /// Whether characteristics carry user descriptions; without them only the endpoint numbers name them.
        public var namesEndpoints: Bool
        /// Whether endpoint access needs a paired link.
        public var requiresPairing: Bool
        /// The ATT MTU of the link.
        public var mtu: Int

        public init(
            serviceUUID: String = ProtocommGATTProfile.defaultServiceUUID, namesEndpoints: Bool = true,
            requiresPairing: Bool = false, mtu: Int = 23
        ) {
            self.serviceUUID = serviceUUID
            self.namesEndpoints = namesEndpoints
            self.requiresPairing = requiresPairing
            self.mtu = mtu
        }
    }

    /// Why an access failed.
    public enum Failure: GATTFailure, Sendable, Equatable {
        /// The device dropped the link, or it was already down.
        case linkLost
        /// The endpoint needs a paired link.
        case insufficientSecurity
        /// No such attribute.
        case unknownAttribute

        public var gattFailureKind: GATTFailureKind {
            switch self {
            case .linkLost: .linkLost
            case .insufficientSecurity: .insufficientSecurity
            case .unknownAttribute: .other
            }
        }
    }

    public nonisolated let services: [GATTService]
    public nonisolated let mtu: Int
    /// The protocomm device behind the service.
    public private(set) var device: ProtocommDevice
    /// Every endpoint written, in order.
    public private(set) var writtenEndpoints: [String] = []
    /// True once the device dropped the link.
    public private(set) var isClosed = false
    /// True once paired.
    public private(set) var isPaired = false
    private let requiresPairing: Bool
    private let endpointNames: [GATTAttributeID: String]
    private let descriptions: [GATTAttributeID: [UInt8]]
    private var replies: [GATTAttributeID: [UInt8]] = [:]

    /// A connected link to a device with `configuration` whose session secrets come from `random`.
    public init(
        configuration: ProtocommDeviceConfiguration, random: some RandomSource = SystemRandomSource(),
        options: Options = Options()
    ) {
        device = ProtocommDevice(configuration: configuration, random: random)
        mtu = options.mtu
        requiresPairing = options.requiresPairing
        var names = ["prov-ctrl", "prov-scan", "prov-session", "prov-config", "proto-ver"]
        if !configuration.hasControlEndpoint { names.removeFirst() }
        names += configuration.customEndpoints.sorted()
        var characteristics: [GATTCharacteristic] = []
        var endpointNames: [GATTAttributeID: String] = [:]
        var descriptions: [GATTAttributeID: [UInt8]] = [:]
        var nextCustomNumber: UInt16 = 0xFF54
        for name in names {
            let number: UInt16
            if let standard = ProtocommGATTProfile.endpointNumbers[name] {
                number = standard
            } else {
                number = nextCustomNumber
                nextCustomNumber += 1
            }
            let id = GATTAttributeID("char-\(name)")
            let descriptorID = GATTAttributeID("desc-\(name)")
            let uuid = ProtocommGATTProfile.characteristicUUID(number: number, serviceUUID: options.serviceUUID) ?? ""
            endpointNames[id] = name
            descriptions[descriptorID] = Array(name.utf8)
            characteristics.append(
                GATTCharacteristic(
                    id: id, uuid: uuid, properties: [.read, .write],
                    descriptors: options.namesEndpoints
                        ? [GATTDescriptor(id: descriptorID, uuid: GATTDescriptor.userDescriptionUUID)] : []))
        }
        self.endpointNames = endpointNames
        self.descriptions = descriptions
        services = [GATTService(uuid: options.serviceUUID, characteristics: characteristics)]
    }

    /// Pairs the link, as an agent's Just Works pairing would.
    public func pair() {
        isPaired = true
    }

    public func read(_ characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant) async throws
        -> [UInt8]
    {
        try checkAccess(characteristic.id)
        return replies[characteristic.id] ?? []
    }

    public func read(_ descriptor: GATTDescriptor, until deadline: ContinuousClock.Instant) async throws -> [UInt8] {
        guard !isClosed else { throw Failure.linkLost }
        guard let value = descriptions[descriptor.id] else { throw Failure.unknownAttribute }
        return value
    }

    public func write(
        _ value: [UInt8], to characteristic: GATTCharacteristic, type: GATTWriteType,
        until deadline: ContinuousClock.Instant
    ) async throws {
        try checkAccess(characteristic.id)
        let name = endpointNames[characteristic.id]!
        writtenEndpoints.append(name)
        switch device.receivedRequest(value, on: ProtocommEndpoint(name: name)) {
        case .reply(let reply):
            replies[characteristic.id] = reply
        case .closeConnection, .notFound:
            isClosed = true
            throw Failure.linkLost
        }
    }

    public func subscribe(to characteristic: GATTCharacteristic, until deadline: ContinuousClock.Instant)
        async throws -> AsyncThrowingStream<[UInt8], any Error>
    {
        throw Failure.unknownAttribute
    }

    private func checkAccess(_ id: GATTAttributeID) throws(Failure) {
        guard !isClosed else { throw .linkLost }
        guard endpointNames[id] != nil else { throw .unknownAttribute }
        if requiresPairing, !isPaired { throw .insufficientSecurity }
    }
}
