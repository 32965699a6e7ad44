import Protocomm
public import Transports

/// Protocomm over a connected GATT peer, as `protocomm_ble` serves it: each exchange writes the request to
/// the endpoint's characteristic with response and reads the reply back from the same characteristic.
/// bluetoothd turns values longer than the MTU into prepare/execute writes and Read Blob reads by itself.
///
/// Requests go strictly one at a time: the caller awaits each exchange, and the device keeps one session
/// per connection.
public struct ProtocommGATTTransport: ProtocommTransport {
    /// Where the endpoints were found.
    public let endpoints: ProtocommGATTEndpoints
    private let connection: any GATTConnection

    /// A transport over `endpoints` on `connection`, as ``ProtocommGATTEndpoints/locate(on:advertised:)`` found them.
    public init(connection: any GATTConnection, endpoints: ProtocommGATTEndpoints) {
        self.connection = connection
        self.endpoints = endpoints
    }

    /// Both the write and the read run by the flow's `deadline`, which passing throws `DeadlineExceeded` as it
    /// came: a device that takes its time over a scan gets the flow's step limit, not the stack's own.
    public func exchange(endpoint: String, payload: [UInt8], until deadline: ContinuousClock.Instant) async throws
        -> [UInt8]
    {
        guard let characteristic = endpoints.characteristics[endpoint] else {
            throw ProtocommGATTExchangeError.endpointMissing(endpoint)
        }
        do {
            try await connection.write(payload, to: characteristic, type: .withResponse, until: deadline)
        } catch let error as DeadlineExceeded {
            throw error
        } catch {
            throw ProtocommGATTExchangeError.writeFailed(endpoint: endpoint, error)
        }
        do {
            return try await connection.read(characteristic, until: deadline)
        } catch let error as DeadlineExceeded {
            throw error
        } catch {
            throw ProtocommGATTExchangeError.readFailed(endpoint: endpoint, error)
        }
    }

    /// The BLE link's encryption, as the connection knows it.
    public var isLinkEncrypted: Bool { get async { await connection.isLinkEncrypted } }
}

/// Why one protocomm exchange over GATT failed; keeps the stack's error for `--verbose`.
public enum ProtocommGATTExchangeError: ProtocommExchangeFailure, CustomStringConvertible {
    /// The device's service has no characteristic for the endpoint.
    case endpointMissing(String)
    /// Writing the request failed.
    case writeFailed(endpoint: String, any Error)
    /// Reading the reply failed.
    case readFailed(endpoint: String, any Error)

    /// What the stack said about the failure, when it classifies its errors.
    public var gattFailureKind: GATTFailureKind? {
        switch self {
        case .endpointMissing: nil
        case .writeFailed(_, let error), .readFailed(_, let error):
            (error as? any GATTFailure)?.gattFailureKind
        }
    }

    /// `protocomm_ble` answers a request its handler refused with ATT Invalid PDU (and may drop the link),
    /// so both are the BLE form of "closed without a response".
    public var exchangeFailureKind: ProtocommExchangeFailureKind {
        switch self {
        case .endpointMissing: return .endpointNotFound
        case .writeFailed, .readFailed: break
        }
        switch gattFailureKind {
        case .linkLost, .rejectedByPeer: return .closedWithoutResponse
        case .timedOut: return .timedOut
        case .invalidValue: return .invalidRequest
        case .insufficientSecurity, .notPermitted: return .unreachable
        case .other, nil: return .systemFailure
        }
    }

    public var description: String {
        switch self {
        case .endpointMissing(let name): "no characteristic for endpoint \(name)"
        case .writeFailed(let endpoint, let error): "writing \(endpoint): \(error)"
        case .readFailed(let endpoint, let error): "reading \(endpoint): \(error)"
        }
    }
}
