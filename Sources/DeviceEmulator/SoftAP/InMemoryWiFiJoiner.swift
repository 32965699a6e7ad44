public import Transports

/// The host's Wi-Fi in memory: a current connection, the hotspots in range, and a record of every
/// join and leave, so tests can prove the host always ends up back on its previous network.
///
/// It keeps the ``WiFiJoiner`` contract: a failed or cancelled join leaves the host where it was,
/// and ``leave(_:)`` restores the connection the join displaced. Faults play once each, in order.
public actor InMemoryWiFiJoiner: WiFiJoiner {
    /// A hotspot in range.
    public struct Hotspot: Sendable, Equatable {
        public var ssid: String
        /// The WPA2 passphrase; nil for an open hotspot.
        public var passphrase: String?
        public var bssid: String
        /// The address the hotspot's DHCP server hands the host.
        public var hostAddress: String
        /// The hotspot's own address, usually the device.
        public var gateway: String

        public init(
            ssid: String, passphrase: String? = nil, bssid: String, hostAddress: String = "192.168.4.2",
            gateway: String = "192.168.4.1"
        ) {
            self.ssid = ssid
            self.passphrase = passphrase
            self.bssid = bssid
            self.hostAddress = hostAddress
            self.gateway = gateway
        }
    }

    /// Trouble the next join or leave runs into.
    public enum Fault: Sendable, Equatable {
        /// The next join fails with this kind, the host staying where it was.
        case failJoin(WiFiJoinFailureKind)
        /// The next join waits out its activation limit, then fails with ``WiFiJoinFailureKind/timedOut``.
        case timeOutJoin
        /// The next leave drops the hotspot but cannot bring the previous connection back.
        case failRestore
    }

    /// What happened to the host's Wi-Fi.
    public enum Event: Sendable, Equatable {
        case joined(ssid: String)
        case joinFailed(ssid: String, WiFiJoinFailureKind)
        case joinCancelled(ssid: String)
        case left(ssid: String)
        /// The connection in use before the join is back (nil: the host had none).
        case restored(previous: String?)
        case restoreFailed(previous: String?)
    }

    /// The host's Wi-Fi interface.
    public nonisolated let interfaceName: String
    /// The hotspots in range.
    public private(set) var hotspots: [Hotspot]
    /// The network the host is on now; nil when it is on none.
    public private(set) var activeConnection: String?
    /// Every join and leave so far.
    public private(set) var events: [Event] = []
    /// The last join request, without secrets in its description.
    public private(set) var lastRequest: WiFiJoinRequest?
    private var faults: [Fault]
    private var displaced: (network: JoinedWiFiNetwork, previous: String?)?

    /// A host on `activeConnection` with `hotspots` in range, playing `faults` in order.
    public init(
        interfaceName: String = "wlan0", activeConnection: String? = "HomeNet", hotspots: [Hotspot],
        faults: [Fault] = []
    ) {
        self.interfaceName = interfaceName
        self.activeConnection = activeConnection
        self.hotspots = hotspots
        self.faults = faults
    }

    /// Whether the host is on one of the hotspots right now.
    public var isOnHotspot: Bool { hotspots.contains { $0.ssid == activeConnection } }

    /// Adds trouble for later joins or leaves.
    public func inject(_ faults: [Fault]) {
        self.faults += faults
    }

    public func join(_ request: WiFiJoinRequest) async throws -> JoinedWiFiNetwork {
        lastRequest = request
        switch takeJoinFault() {
        case .failJoin(let kind):
            throw failJoin(request.ssid, kind)
        case .timeOutJoin:
            try await waitOut(request)
            throw failJoin(request.ssid, .timedOut)
        case .failRestore, nil:
            break
        }
        guard let hotspot = hotspot(matching: request) else { throw failJoin(request.ssid, .networkNotFound) }
        if let expected = hotspot.passphrase, !expected.isEmpty, request.passphrase != expected {
            throw failJoin(request.ssid, .passwordRejected)
        }
        if Task.isCancelled {
            events.append(.joinCancelled(ssid: request.ssid))
            throw CancellationError()
        }
        let network = JoinedWiFiNetwork(
            interfaceName: interfaceName, ssid: hotspot.ssid, bssid: hotspot.bssid, localAddress: hotspot.hostAddress,
            prefixLength: 24, gateway: hotspot.gateway)
        displaced = (network, activeConnection)
        activeConnection = hotspot.ssid
        events.append(.joined(ssid: hotspot.ssid))
        return network
    }

    public func leave(_ network: JoinedWiFiNetwork) async throws {
        guard let displaced, displaced.network == network else { return }
        self.displaced = nil
        events.append(.left(ssid: network.ssid))
        if let index = faults.firstIndex(of: .failRestore) {
            faults.remove(at: index)
            activeConnection = nil
            events.append(.restoreFailed(previous: displaced.previous))
            throw InMemoryWiFiJoinError(kind: .restoreFailed, ssid: network.ssid)
        }
        activeConnection = displaced.previous
        events.append(.restored(previous: displaced.previous))
    }

    /// The hotspot with the request's SSID, and its BSSID when the request pins one.
    private func hotspot(matching request: WiFiJoinRequest) -> Hotspot? {
        hotspots.first { $0.ssid == request.ssid && (request.bssid ?? $0.bssid) == $0.bssid }
    }

    private func takeJoinFault() -> Fault? {
        guard let index = faults.firstIndex(where: { $0 != .failRestore }) else { return nil }
        return faults.remove(at: index)
    }

    /// Waits as long as the request allows activation; a cancelled wait leaves the host as it was.
    private func waitOut(_ request: WiFiJoinRequest) async throws {
        do {
            try await Task.sleep(for: request.timeouts.activation)
        } catch {
            events.append(.joinCancelled(ssid: request.ssid))
            throw error
        }
    }

    private func failJoin(_ ssid: String, _ kind: WiFiJoinFailureKind) -> InMemoryWiFiJoinError {
        events.append(.joinFailed(ssid: ssid, kind))
        return InMemoryWiFiJoinError(kind: kind, ssid: ssid)
    }
}

/// Why the in-memory joiner refused, in the port's kinds.
public struct InMemoryWiFiJoinError: WiFiJoinFailure, Equatable, CustomStringConvertible {
    public var kind: WiFiJoinFailureKind
    public var ssid: String

    public var joinFailureKind: WiFiJoinFailureKind { kind }

    public var description: String { "in-memory join of \(ssid) failed: \(kind)" }
}
