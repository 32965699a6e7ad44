public import Transports

/// Why an HTTP exchange produced no response at all.
public struct HTTPExchangeError: TransportFailure, Equatable {
    public let kind: TransportFailureKind
    public let detail: String

    public init(kind: TransportFailureKind, detail: String) {
        self.kind = kind
        self.detail = detail
    }
}
