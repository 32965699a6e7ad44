/// An error from a ``ProtocommTransport`` that says which kind of trouble it is, so a flow can tell a
/// wrong proof of possession from a missing endpoint without knowing which transport threw it.
public protocol ProtocommExchangeFailure: Error {
    /// The kind of trouble; the error's own description keeps the system's words.
    var exchangeFailureKind: ProtocommExchangeFailureKind { get }
}

/// The kinds of trouble one protocomm exchange can run into, as a flow has to react to them.
public enum ProtocommExchangeFailureKind: Sendable, Equatable, CaseIterable {
    /// The device dropped the connection instead of answering: how protocomm reports every handler
    /// failure, so during the handshake it means wrong credentials.
    case closedWithoutResponse
    /// The firmware does not register this endpoint (HTTP 404).
    case endpointNotFound
    /// The connection that alone identified the session closed, so the session is gone.
    case sessionLost
    /// Nothing accepted the connection: refused, unroutable, or the device's server has stopped.
    case unreachable
    /// The transport could not use the network interface it was told to (missing, or not permitted).
    case interfaceUnavailable
    /// No connection or no complete answer before the transport's own deadline.
    case timedOut
    /// The device answered with something other than a protocomm reply (another status, bad framing).
    case unexpectedResponse
    /// The request itself was invalid: an endpoint name or payload size the transport cannot send.
    case invalidRequest
    /// Another system failure; the error's description names it.
    case systemFailure
}
