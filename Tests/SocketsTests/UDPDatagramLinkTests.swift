import Sockets
import Testing
import Transports

#if canImport(Glibc)
    import Glibc
#endif

let isRoot = getuid() == 0

/// The loopback address at `port`.
func loopback(_ port: UInt16) -> DatagramEndpoint {
    DatagramEndpoint(address: [127, 0, 0, 1], port: port)!
}

@Suite struct UDPDatagramLinkTests {
    @Test func unicastArrivesWithItsSource() async throws {
        try await UDPDatagramLink.withLink(.init(localPort: 0)) { sender in
            try await UDPDatagramLink.withLink(.init(localPort: 0)) { receiver in
                let target = loopback(try receiver.localEndpoint().port)
                try await sender.send([1, 2, 3], to: .unicast(target))
                let datagram = try await receiver.receive(until: .now + .seconds(2))
                let source = loopback(try sender.localEndpoint().port)
                #expect(datagram == Datagram(bytes: [1, 2, 3], source: source))
            }
        }
    }

    @Test func largeDatagramsArriveWhole() async throws {
        try await UDPDatagramLink.withLink(.init(localPort: 0)) { link in
            let target = loopback(try link.localEndpoint().port)
            let big = (0..<60_000).map { UInt8(truncatingIfNeeded: $0) }
            try await link.send(big, to: .unicast(target))
            let received = try await link.receive(until: .now + .seconds(2))
            #expect(received?.bytes == big)
        }
    }

    @Test func receiveReturnsNilAtTheDeadline() async throws {
        try await UDPDatagramLink.withLink(.init(localPort: 0)) { link in
            let started = ContinuousClock.now
            let received = try await link.receive(until: .now + .milliseconds(50))
            #expect(received == nil)
            let waited = ContinuousClock.now - started
            // Only a lower bound: a test process stalled by parallel neighbours may wake up late.
            #expect(waited >= .milliseconds(50))
        }
    }

    @Test func cancellationEndsAWaitingReceive() async throws {
        let link = try UDPDatagramLink(.init(localPort: 0))
        defer { link.close() }
        let waiting = Task { try await link.receive(until: .now + .seconds(30)) }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }

    @Test func aTakenPortIsAddressInUse() throws {
        let first = try UDPDatagramLink(.init(localPort: 0))
        defer { first.close() }
        let port = try first.localEndpoint().port
        #expect { try UDPDatagramLink(.init(localPort: port)) } throws: { error in
            (error as? SocketError)?.kind == .addressInUse && (error as? SocketError)?.errno == EADDRINUSE
        }
    }

    @Test func aClosedLinkFailsWithEBADF() async throws {
        let link = try UDPDatagramLink(.init(localPort: 0))
        link.close()
        await #expect(throws: SocketError("sendto(127.0.0.1:9)", errno: EBADF)) {
            try await link.send([0], to: .unicast(loopback(9)))
        }
    }

    @Test(.enabled(if: isRoot, "SO_BINDTODEVICE needs root (CAP_NET_RAW)"))
    func anUnknownInterfaceIsNoSuchInterface() {
        #expect { try UDPDatagramLink(.init(interface: "ztnone0", localPort: 0)) } throws: { error in
            let failure = error as? SocketError
            return failure?.kind == .noSuchInterface && failure?.detail.contains("SO_BINDTODEVICE, ztnone0") == true
        }
    }

    @Test(.enabled(if: isRoot, "SO_BINDTODEVICE needs root (CAP_NET_RAW)"))
    func aBroadcastPinnedToLoopbackStaysOnLoopback() async throws {
        try await UDPDatagramLink.withLink(.init(interface: "lo", localPort: 0)) { listener in
            try await UDPDatagramLink.withLink(.init(interface: "lo", localPort: 0)) { sender in
                let port = try listener.localEndpoint().port
                try await sender.send([0x21, 0x31], to: .broadcast(port: port))
                let datagram = try await listener.receive(until: .now + .seconds(2))
                let senderPort = try sender.localEndpoint().port
                #expect(datagram?.bytes == [0x21, 0x31])
                #expect(datagram?.source.port == senderPort)
            }
        }
    }
}
