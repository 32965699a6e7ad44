public import Transports
public import ZhitingLAN

/// A ``DatagramLink`` that delivers straight to emulated devices in the same process: the flows'
/// LAN without sockets, for pair tests and `ztprov demo`.
///
/// Broadcasts reach every peer on the port (and loop back to the flow, as a real broadcast does);
/// unicasts reach the peer at that endpoint. Replies queue up for ``receive(until:)``.
public actor InMemoryDatagramLink: DatagramLink {
    /// Something listening on the emulated LAN.
    public enum Peer: Sendable {
        /// A Zhiting device or hub, played by the protocol core's responder.
        case zhiting(ZhitingDeviceResponder)
        /// A hand-written peer for fault tests: every datagram in, any number of replies out.
        case scripted(@Sendable ([UInt8]) -> [[UInt8]])
    }

    /// A datagram the flow sent.
    public struct SentDatagram: Sendable, Equatable {
        public var bytes: [UInt8]
        public var destination: DatagramDestination
    }

    /// The address the flow appears to send from.
    public let localEndpoint: DatagramEndpoint
    public private(set) var sent: [SentDatagram] = []
    private var peers: [DatagramEndpoint: Peer] = [:]
    private var inbox: [Datagram] = [] {
        didSet { if !inbox.isEmpty { wakeWaiters() } }
    }
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// A link for a flow at `localEndpoint` (127.0.0.1:54321 by default, like a real client).
    public init(localEndpoint: DatagramEndpoint = DatagramEndpoint(address: [127, 0, 0, 1], port: 54321)!) {
        self.localEndpoint = localEndpoint
    }

    /// Puts `peer` on the emulated LAN at `endpoint`.
    public func attach(_ peer: Peer, at endpoint: DatagramEndpoint) {
        peers[endpoint] = peer
    }

    /// The responder at `endpoint` as it is now, with what it received (its last assignment).
    public func responder(at endpoint: DatagramEndpoint) -> ZhitingDeviceResponder? {
        guard case .zhiting(let responder) = peers[endpoint] else { return nil }
        return responder
    }

    /// Queues `datagram` as if it had arrived from the network (strays, spoofs, late replies).
    public func inject(_ datagram: Datagram) {
        inbox.append(datagram)
    }

    public func send(_ bytes: [UInt8], to destination: DatagramDestination) async throws {
        sent.append(SentDatagram(bytes: bytes, destination: destination))
        switch destination {
        case .unicast(let endpoint):
            deliver(bytes, to: endpoint)
        case .broadcast(let port):
            if localEndpoint.port == port { inbox.append(Datagram(bytes: bytes, source: localEndpoint)) }
            for endpoint in peers.keys.sorted(by: { $0.description < $1.description }) where endpoint.port == port {
                deliver(bytes, to: endpoint)
            }
        }
    }

    public func receive(until deadline: ContinuousClock.Instant) async throws -> Datagram? {
        while inbox.isEmpty {
            try Task.checkCancellation()
            guard ContinuousClock.now < deadline else { return nil }
            do {
                try await withDeadline(deadline, "datagram receive") { await self.arrival() }
            } catch is DeadlineExceeded {
                return nil
            }
        }
        return inbox.removeFirst()
    }

    /// Returns once something is in the inbox, or once the waiting task is cancelled.
    private func arrival() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { waiter in
                if !inbox.isEmpty || Task.isCancelled {
                    waiter.resume()
                } else {
                    waiters.append(waiter)
                }
            }
        } onCancel: {
            Task { await self.wakeWaiters() }
        }
    }

    /// Wakes every waiting receive; each looks at the inbox again.
    private func wakeWaiters() {
        let woken = waiters
        waiters = []
        for waiter in woken { waiter.resume() }
    }

    private func deliver(_ bytes: [UInt8], to endpoint: DatagramEndpoint) {
        let replies: [[UInt8]]
        switch peers[endpoint] {
        case .zhiting(var responder):
            replies = responder.receivedDatagram(bytes).map { [$0] } ?? []
            peers[endpoint] = .zhiting(responder)
        case .scripted(let handler):
            replies = handler(bytes)
        case nil:
            replies = []
        }
        inbox += replies.map { Datagram(bytes: $0, source: endpoint) }
    }
}
