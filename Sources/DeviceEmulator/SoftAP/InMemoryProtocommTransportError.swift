public import Transports

/// What an in-memory exchange reports when the emulated device does not answer with a body, in
/// the same kinds the HTTP transport's errors have.
public enum InMemoryProtocommTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The device closed the connection without answering.
    case closedWithoutResponse(endpoint: String)
    /// The device answered 404.
    case endpointNotFound(endpoint: String)
    /// Nothing accepted the connection: the device's server stopped, or a fault refused it.
    case connectionRefused

    public var description: String {
        switch self {
        case .closedWithoutResponse(let endpoint): "the device closed the connection without answering /\(endpoint)"
        case .endpointNotFound(let endpoint): "the firmware has no /\(endpoint) endpoint (404)"
        case .connectionRefused: "the device refused the connection"
        }
    }
}

extension InMemoryProtocommTransportError: ProtocommExchangeFailure {
    public var exchangeFailureKind: ProtocommExchangeFailureKind {
        switch self {
        case .closedWithoutResponse: .closedWithoutResponse
        case .endpointNotFound: .endpointNotFound
        case .connectionRefused: .unreachable
        }
    }
}
