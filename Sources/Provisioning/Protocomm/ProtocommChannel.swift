import Protocomm
import Transports

/// Where the device is reached, for messages about failed exchanges.
enum ProtocommPeer: Sendable {
    /// The device's protocomm HTTP server on its hotspot, reached through the host's `interface`.
    case hotspot(device: DeviceEndpoint, interface: String)
    /// The device's protocomm GATT service over a BLE link to `address`.
    case ble(address: String)

    /// The option that forces the session's security on this transport's command: `softap --security`,
    /// `ble --sec-ver` (where `--security` is BluFi's).
    var securityOption: String {
        switch self {
        case .hotspot: "--security"
        case .ble: "--sec-ver"
        }
    }

    /// What a person checks when the peer does not answer as a provisioning service does.
    var serviceCheck: String {
        switch self {
        case .hotspot: "Check --device-address points at the device's provisioning server."
        case .ble: "Check that the device runs ESP provisioning over BLE (`ztprov scan` shows its protocol)."
        }
    }
}

/// The protocomm channel to the device, whatever transport carries it: each request bounded by its limit and the run's
/// deadline, encrypted once the session exists, and every failure turned into a ``ProvisioningError``
/// read in the light of the phase. Cancellation passes through as `CancellationError`.
struct ProtocommChannel {
    let transport: any ProtocommTransport
    let peer: ProtocommPeer
    /// The deadline of the whole run.
    let deadline: ContinuousClock.Instant
    /// The session's cipher, set by the handshake. Each message passes through it exactly once, in
    /// wire order, because security 1 and security 2 patch 1 advance with every message.
    var cipher: ProtocommCipher?

    /// Sends a payload in the clear (`proto-ver`, `prov-session`) and returns the reply.
    ///
    /// - Parameters:
    ///   - limit: the request's own limit.
    ///   - step: a step deadline that may end the wait sooner (the connect limit while polling).
    func exchangePlain(
        _ payload: [UInt8], on endpoint: ProtocommEndpoint, phase: ProtocommPhase, limit: Duration,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil
    ) async throws -> [UInt8] {
        let limit = StepLimit(limit, within: deadline, enclosing: step)
        do {
            return try await transport.exchange(endpoint: endpoint.name, payload: payload, until: limit.deadline)
        } catch is DeadlineExceeded {
            throw ProvisioningError.protocommWaitExpired(
                endpoint: endpoint, phase: phase, limit: limit.ending, on: peer)
        } catch {
            if error is CancellationError || Task.isCancelled { throw CancellationError() }
            throw ProvisioningError.protocommExchange(error, endpoint: endpoint, phase: phase, on: peer)
        }
    }

    /// Encrypts `plaintext`, sends it, and returns the decrypted reply.
    mutating func exchangeEncrypted(
        _ plaintext: [UInt8], on endpoint: ProtocommEndpoint, phase: ProtocommPhase, limit: Duration,
        step: (deadline: ContinuousClock.Instant, limit: Duration)? = nil
    ) async throws -> [UInt8] {
        guard var active = cipher else {
            throw ProvisioningError.protocommProtocol(
                .sessionNotEstablished, endpoint: endpoint, phase: phase, on: peer)
        }
        defer { cipher = active }
        let request: [UInt8]
        do {
            request = try active.encrypt(plaintext)
        } catch {
            throw ProvisioningError.protocommProtocol(error, endpoint: endpoint, phase: phase, on: peer)
        }
        let reply = try await exchangePlain(request, on: endpoint, phase: phase, limit: limit, step: step)
        do {
            return try active.decrypt(reply)
        } catch {
            throw ProvisioningError.protocommProtocol(error, endpoint: endpoint, phase: phase, on: peer)
        }
    }
}

extension ProvisioningError {
    /// A limit ran out while waiting for `endpoint`. After "apply", the connect limit or the run's
    /// deadline means the device was still joining; the request's own limit means it went silent.
    static func protocommWaitExpired(
        endpoint: ProtocommEndpoint, phase: ProtocommPhase, limit: StepLimit.Ending, on peer: ProtocommPeer
    ) -> ProvisioningError {
        switch (phase, limit) {
        case (.awaitingConnection(let ssid), .own):
            .protocommOutcomeUnknown(ssid: ssid, detail: "no answer to /\(endpoint) in time", on: peer)
        case (.awaitingConnection(let ssid), _):
            .protocommWiFiConnectTimeout(ssid: ssid, limit: limit)
        case (.awaitingAttach(let network), .enclosing), (.awaitingAttach(let network), .handedDown):
            .protocommThreadAttachTimeout(network: network, limit: limit)
        default:
            .protocommDeviceTimeout(endpoint: endpoint, limit: limit)
        }
    }
}
