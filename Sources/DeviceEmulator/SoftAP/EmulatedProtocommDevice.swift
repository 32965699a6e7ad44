public import CryptoPrimitives
public import Protocomm

/// A provisioning device behind its hotspot, as protocomm's HTTP server presents it to clients:
/// one security session for the whole server, a socket closed on every handler failure, 404 for
/// an unregistered endpoint, and a server that stops once provisioning has succeeded.
///
/// Clients talk to it through ``InMemoryProtocommTransport`` connections from ``connect()``. Each connection
/// stands for one client with its session cookie: a request from another connection starts a new session (as
/// a foreign cookie does in `protocomm_httpd.c`), one from the same connection keeps it, even after the
/// device closed the socket.
public actor EmulatedProtocommDevice {
    /// The protocomm device: its security, Wi-Fi state machine and configuration.
    public private(set) var device: ProtocommDevice
    /// Faults still waiting for their request.
    public private(set) var pendingFaults: [ProtocommTransportFault]
    /// Every request so far and what became of it, for tests to inspect.
    public private(set) var exchanges: [EmulatedProtocommExchange] = []
    /// The endpoint names of requests a ``ProtocommTransportFault/Action/hang`` fault is holding, in
    /// order; a test waits on it to act while a request is in flight.
    public nonisolated let hangingRequests: AsyncStream<String>
    private let hangingContinuation: AsyncStream<String>.Continuation
    private var sessionOwner: Int?
    private var connectionCount = 0
    private var requestCounts: [String: Int] = [:]

    /// A device with `configuration` whose session secrets come from `random`, playing `faults`.
    public init(
        configuration: ProtocommDeviceConfiguration,
        random: some RandomSource = SystemRandomSource(),
        faults: [ProtocommTransportFault] = []
    ) {
        device = ProtocommDevice(configuration: configuration, random: random)
        pendingFaults = faults
        (hangingRequests, hangingContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// A new client connection, as a host that just joined the hotspot opens one.
    public func connect() -> InMemoryProtocommTransport {
        connectionCount += 1
        return InMemoryProtocommTransport(device: self, connection: connectionCount)
    }

    /// Adds faults for requests still to come.
    public func inject(_ faults: [ProtocommTransportFault]) {
        pendingFaults += faults
    }

    /// Serves one request from `connection`.
    func handle(_ payload: [UInt8], endpoint: String, connection: Int) async throws -> [UInt8] {
        requestCounts[endpoint, default: 0] += 1
        if let fault = takeFault(for: endpoint) {
            return try await play(fault, endpoint: endpoint)
        }
        guard !device.hasFinishedProvisioning else {
            exchanges.append(EmulatedProtocommExchange(endpoint: endpoint, outcome: .refused))
            throw InMemoryProtocommTransportError.connectionRefused
        }
        if sessionOwner != connection {
            sessionOwner = connection
            device.startedNewSession()
        }
        switch device.receivedRequest(payload, on: ProtocommEndpoint(name: endpoint)) {
        case .reply(let body):
            exchanges.append(EmulatedProtocommExchange(endpoint: endpoint, outcome: .replied))
            return body
        case .closeConnection(let reason):
            exchanges.append(EmulatedProtocommExchange(endpoint: endpoint, outcome: .closed(reason)))
            throw InMemoryProtocommTransportError.closedWithoutResponse(endpoint: endpoint)
        case .notFound:
            exchanges.append(EmulatedProtocommExchange(endpoint: endpoint, outcome: .notFound))
            throw InMemoryProtocommTransportError.endpointNotFound(endpoint: endpoint)
        }
    }

    private func takeFault(for endpoint: String) -> ProtocommTransportFault? {
        let count = requestCounts[endpoint, default: 0]
        guard let index = pendingFaults.firstIndex(where: { $0.endpoint == endpoint && $0.occurrence == count })
        else { return nil }
        return pendingFaults.remove(at: index)
    }

    private func play(_ fault: ProtocommTransportFault, endpoint: String) async throws -> [UInt8] {
        exchanges.append(EmulatedProtocommExchange(endpoint: endpoint, outcome: .faulted(fault.action)))
        switch fault.action {
        case .closeConnection:
            throw InMemoryProtocommTransportError.closedWithoutResponse(endpoint: endpoint)
        case .notFound:
            throw InMemoryProtocommTransportError.endpointNotFound(endpoint: endpoint)
        case .refuseConnection:
            throw InMemoryProtocommTransportError.connectionRefused
        case .hang:
            hangingContinuation.yield(endpoint)
            while true { try await Task.sleep(for: .seconds(3600)) }
        }
    }
}

/// One request the emulated device saw.
public struct EmulatedProtocommExchange: Sendable, Equatable {
    /// What became of a request.
    public enum Outcome: Sendable, Equatable {
        /// 200 with a body.
        case replied
        /// The device closed the connection; the error says what it saw (the client never learns it).
        case closed(ProtocommError)
        /// 404.
        case notFound
        /// The server had stopped after provisioning succeeded.
        case refused
        /// A planned fault took the request.
        case faulted(ProtocommTransportFault.Action)
    }

    /// The endpoint name.
    public var endpoint: String
    /// What became of the request.
    public var outcome: Outcome
}
