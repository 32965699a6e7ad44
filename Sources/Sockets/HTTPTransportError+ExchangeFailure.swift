public import Transports

/// Sorts the HTTP transport's errors into the kinds flows react to, keeping the errors themselves.
extension HTTPTransportError: ProtocommExchangeFailure {
    public var exchangeFailureKind: ProtocommExchangeFailureKind {
        switch self {
        case .invalidEndpointName, .payloadSizeOutOfRange: .invalidRequest
        case .interfaceBindingFailed: .interfaceUnavailable
        case .connectFailed: .unreachable
        case .connectTimedOut, .exchangeTimedOut: .timedOut
        case .systemCallFailed: .systemFailure
        case .connectionClosedWithoutResponse: .closedWithoutResponse
        case .sessionConnectionLost: .sessionLost
        case .endpointNotFound: .endpointNotFound
        case .unexpectedStatus, .malformedResponse, .unsolicitedBytes: .unexpectedResponse
        }
    }
}
