import Foundation
public import Transports

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why an HTTP exchange produced no response at all, kept in URLSession's words.
public struct HTTPExchangeError: TransportFailure, Equatable {
    public let kind: TransportFailureKind
    public let detail: String

    public init(kind: TransportFailureKind, detail: String) {
        self.kind = kind
        self.detail = detail
    }

    init(_ error: URLError) {
        let kind: TransportFailureKind =
            switch error.code {
            case .timedOut: .timedOut
            case .cannotConnectToHost: .refused
            case .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .networkConnectionLost: .unreachable
            default: .other
            }
        self.init(kind: kind, detail: "URLError \(error.code.rawValue): \(error.localizedDescription)")
    }
}
