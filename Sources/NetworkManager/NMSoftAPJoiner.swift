public import Transports

/// Joins a device's hotspot through NetworkManager and puts the previous connection back afterwards.
///
/// All libnm work happens on one thread of its own (``unownedExecutor``), where libnm's objects,
/// signals and callbacks live. A join records the device's current connection, adds a volatile
/// profile bound to this process (so NetworkManager removes it even if ztprov dies), and waits for
/// an address; leaving takes the hotspot down and reactivates the recorded connection. A failed or
/// cancelled join cleans up the same way before it throws.
public actor NMSoftAPJoiner: WiFiJoiner {
    /// Where to find NetworkManager and which device to use.
    public struct Configuration: Sendable, Equatable {
        /// The interface, such as `wlan0`; `nil` takes NetworkManager's first device of the ``link`` kind.
        public var interfaceName: String?
        /// A D-Bus address such as `unix:path=/run/…/system_bus_socket`; `nil` is the system bus.
        public var busAddress: String?
        /// How the host reaches the device; always ``Link/wifi`` outside tests.
        public var link: Link

        public init(interfaceName: String? = nil, busAddress: String? = nil, link: Link = .wifi) {
            self.interfaceName = interfaceName
            self.busAddress = busAddress
            self.link = link
        }
    }

    /// The kind of device the joiner activates its profile on.
    public enum Link: Sendable, Equatable {
        /// Scan for the device's hotspot and join it on a Wi-Fi device.
        case wifi
        /// Tests only: bring the same volatile, never-default profile up as a wired connection on an
        /// Ethernet (or veth) device, with no scan.
        ///
        /// NetworkManager in a network namespace has no radio, only a veth; this lets a test run the
        /// real daemon's activation, DHCP, volatile-profile removal and restore. The request's SSID
        /// only names the profile, its passphrase and BSSID are unused, and the joined network's
        /// ``JoinedWiFiNetwork/bssid`` is empty.
        case ethernetForTesting
    }

    public let configuration: Configuration
    private let executor: GMainContextExecutor
    private var session: NMJoinSession?
    private var isJoining = false

    /// Loads libnm, so a host without it gets a named error here rather than at the first GLib call.
    public init(configuration: Configuration = Configuration()) throws(NetworkManagerError) {
        try LibNMLibrary.load()
        self.configuration = configuration
        executor = GMainContextExecutor(name: "ztprov-libnm")
    }

    /// The libnm thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    public func join(_ request: WiFiJoinRequest) async throws -> JoinedWiFiNetwork {
        if let session { throw NetworkManagerError.alreadyJoined(interface: session.network.interfaceName) }
        if isJoining { throw NetworkManagerError.alreadyJoined(interface: configuration.interfaceName ?? "Wi-Fi") }
        isJoining = true
        defer { isJoining = false }
        let cancellable = GCancellableHandle()
        let session = try await withTaskCancellationHandler {
            try await joinOrRestore(request, cancellable: cancellable)
        } onCancel: {
            cancellable.cancel()
        }
        self.session = session
        return session.network
    }

    public func leave(_ network: JoinedWiFiNetwork) async throws {
        guard let session, session.network == network else { return }
        self.session = nil
        if let error = await tearDown(session.attempt, timeout: session.restoreTimeout) { throw error }
    }

    /// Runs the join; once NetworkManager has started activating, any failure first restores the host.
    private func joinOrRestore(_ request: WiFiJoinRequest, cancellable: GCancellableHandle) async throws
        -> NMJoinSession
    {
        let client = try await openClient(within: request.timeouts.activation, cancellable: cancellable)
        guard client.isNetworkManagerRunning else { throw NetworkManagerError.notRunning }
        let (device, accessPoint) = try await target(for: request, client: client, cancellable: cancellable)
        let attempt = NMJoinAttempt(client: client, device: device, previous: previousProfile(on: device))
        do {
            try await activate(request, towards: accessPoint, attempt: attempt, cancellable: cancellable)
            let network = joinedNetwork(request, device: device, bssid: accessPoint?.summary.bssid ?? "")
            return NMJoinSession(attempt: attempt, network: network, restoreTimeout: request.timeouts.restore)
        } catch {
            // The join's own error is the one to report; a failed restore behind it would hide the cause.
            _ = await tearDown(attempt, timeout: request.timeouts.restore)
            throw error
        }
    }

    /// The client, its bus connection bounded by `limit`: a bus that takes the connection and never
    /// answers its handshake must not hold the join past its deadline. Cancelling `cancellable` ends the
    /// wait (GIO reads the handshake with it).
    private func openClient(within limit: Duration, cancellable: GCancellableHandle) async throws -> LibNMClient {
        let expired = NMConnectDeadline()
        let timer = Task {
            guard (try? await Task.sleep(for: limit)) != nil else { return }
            expired.fire(cancelling: cancellable)
        }
        defer { timer.cancel() }
        let client: LibNMClient
        do {
            client = try await LibNMClient.open(busAddress: configuration.busAddress, cancellable: cancellable)
        } catch {
            if expired.fired, !Task.isCancelled { throw NetworkManagerError.busNotAnswering(after: limit) }
            throw error
        }
        // A limit that fires from here on must not cancel the join's later steps.
        guard expired.finish() else { throw NetworkManagerError.busNotAnswering(after: limit) }
        return client
    }

    /// The device to join on and, for Wi-Fi, the hotspot's access point found by scanning.
    private func target(for request: WiFiJoinRequest, client: LibNMClient, cancellable: GCancellableHandle)
        async throws -> (LibNMDevice, LibNMAccessPoint?)
    {
        switch configuration.link {
        case .wifi:
            let device = try client.wifiDevice(named: configuration.interfaceName)
            guard client.isWirelessEnabled else { throw NetworkManagerError.wifiDisabled }
            try checkUsable(device)
            return (device, try await findAccessPoint(for: request, on: device, cancellable: cancellable))
        case .ethernetForTesting:
            let device = try client.ethernetDevice(named: configuration.interfaceName)
            try checkUsable(device)
            return (device, nil)
        }
    }

    private func checkUsable(_ device: LibNMDevice) throws {
        switch device.state {
        case .unknown, .unmanaged, .unavailable:
            throw NetworkManagerError.deviceUnavailable(interface: device.interfaceName, state: device.state)
        default:
            return
        }
    }

    /// The profile running on the device now, unless it is a leftover ztprov profile.
    private func previousProfile(on device: LibNMDevice) -> LibNMRemoteConnection? {
        guard let profile = device.activeConnection?.profile,
            !profile.id.hasPrefix(NMSoftAPProfile.connectionIDPrefix)
        else { return nil }
        return profile
    }

    private func joinedNetwork(
        _ request: WiFiJoinRequest,
        device: LibNMDevice,
        bssid: String
    ) -> JoinedWiFiNetwork {
        let ipv4 = device.ipv4
        return JoinedWiFiNetwork(
            interfaceName: device.interfaceName,
            ssid: request.ssid,
            bssid: bssid,
            localAddress: ipv4?.address,
            prefixLength: ipv4?.prefixLength,
            gateway: ipv4?.gateway
        )
    }
}

/// What one join changed in NetworkManager, so that teardown undoes exactly that.
final class NMJoinAttempt {
    let client: LibNMClient
    let device: LibNMDevice
    /// The profile the device ran before, to reactivate afterwards.
    let previous: LibNMRemoteConnection?
    /// Whether NetworkManager started activating the hotspot, displacing the previous connection.
    var hasStarted = false
    /// The hotspot activation, once NetworkManager has started it and libnm has loaded it.
    var activation: LibNMActiveConnection?
    /// The UUID of a profile NetworkManager keeps after deactivation (before 1.16), to delete explicitly.
    var keptProfileUUID: String?

    init(client: LibNMClient, device: LibNMDevice, previous: LibNMRemoteConnection?) {
        self.client = client
        self.device = device
        self.previous = previous
    }
}

/// A join in place: what to undo and the network handed to the caller.
struct NMJoinSession {
    let attempt: NMJoinAttempt
    let network: JoinedWiFiNetwork
    let restoreTimeout: Duration
}
