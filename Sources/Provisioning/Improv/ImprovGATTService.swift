import Improv
import Transports

/// The Improv service's five characteristics on a connected peer (``ImprovGATTProfile``).
struct ImprovGATTService: Sendable {
    let currentState: GATTCharacteristic
    let errorState: GATTCharacteristic
    let rpcCommand: GATTCharacteristic
    let rpcResult: GATTCharacteristic
    let capabilities: GATTCharacteristic

    /// Finds the service and its characteristics; throws `ble.services-missing` when one is absent.
    init(on connection: any GATTConnection) throws(ProvisioningError) {
        let service = connection.service(ImprovGATTProfile.serviceUUID)
        func find(_ characteristic: ImprovCharacteristic) throws(ProvisioningError) -> GATTCharacteristic {
            guard let service else { throw Self.missing("the service") }
            guard let found = service.characteristic(characteristic.uuid) else {
                throw Self.missing("\(characteristic)")
            }
            return found
        }
        currentState = try find(.currentState)
        errorState = try find(.errorState)
        rpcCommand = try find(.rpcCommand)
        rpcResult = try find(.rpcResult)
        capabilities = try find(.capabilities)
    }

    /// The discovered characteristic for `characteristic`.
    subscript(_ characteristic: ImprovCharacteristic) -> GATTCharacteristic {
        switch characteristic {
        case .currentState: currentState
        case .errorState: errorState
        case .rpcCommand: rpcCommand
        case .rpcResult: rpcResult
        case .capabilities: capabilities
        }
    }

    private static func missing(_ what: String) -> ProvisioningError {
        ProvisioningError(
            .bleServicesMissing, "The device does not offer the Improv GATT service.",
            hint: "Check that this is an Improv device waiting to be provisioned; "
                + "`bluetoothctl remove ADDRESS` clears a stale cache.",
            detail: "\(ImprovGATTProfile.serviceUUID): \(what) is missing")
    }
}
