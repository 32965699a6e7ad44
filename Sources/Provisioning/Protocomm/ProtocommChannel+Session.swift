import CryptoPrimitives
import Protocomm
import Records
import Transports

/// The opening every protocomm conversation shares, whatever network it provisions: `proto-ver`, the
/// security choice, and the handshake that leaves the channel encrypting.
extension ProtocommChannel {
    /// The opening of every conversation: `proto-ver` (checked by `requirement`), the security choice and
    /// the handshake, each step reported through `progress` and timed on `steps`.
    mutating func open(
        security options: ProtocommSecurityOptions,
        requirement: (ProtocommVersionInfo) throws(ProvisioningError) -> Void,
        limit: Duration, steps: inout ProtocommStepClock, progress: ProtocommProgressSink,
        random: inout some RandomSource
    ) async throws -> (info: ProtocommVersionInfo, security: ProtocommSecurityUsed) {
        let info = try await describeDevice(limit: limit)
        progress(.deviceDescribed(info))
        try requirement(info)
        var (security, used) = try info.chooseSecurity(options, on: peer)
        // Read after proto-ver: a device that insists on an encrypted link was paired for that first access.
        used.linkEncrypted = await transport.isLinkEncrypted
        progress(.securityChosen(used))
        try options.minimum.admit(ProvisioningSecurity(used))
        steps.finish(.version)
        try await establishSession(security, limit: limit, random: &random)
        progress(.sessionEstablished(used.level))
        steps.finish(.session)
        return (info, used)
    }

    /// Any non-empty body will do; the official apps send `ESP`.
    func describeDevice(limit: Duration) async throws -> ProtocommVersionInfo {
        let reply = try await exchangePlain(Array("ESP".utf8), on: .protocolVersion, phase: .describing, limit: limit)
        do {
            return try ProtocommVersionInfo(responseBody: reply)
        } catch {
            throw ProvisioningError.protocommProtocol(error, endpoint: .protocolVersion, phase: .describing, on: peer)
        }
    }

    /// The handshake loop: post to `prov-session` until the core hands over the cipher.
    mutating func establishSession(
        _ security: ProtocommSecurity, limit: Duration, random: inout some RandomSource
    ) async throws {
        var session: ProtocommSession
        do {
            session = try ProtocommSession(security: security, random: &random)
        } catch {
            throw ProvisioningError.protocommInvalidSRPUsername(error)
        }
        var next = session.start()
        while true {
            let phase = ProtocommPhase.handshake(security.level, awaitingVerdict: session.isAwaitingVerdict)
            let reply = try await exchangePlain(next, on: .session, phase: phase, limit: limit)
            let step: ProtocommSessionStep
            do {
                step = try session.receive(reply)
            } catch {
                throw ProvisioningError.protocommProtocol(error, endpoint: .session, phase: phase, on: peer)
            }
            switch step {
            case .send(let request):
                next = request
            case .established(let cipher):
                self.cipher = cipher
                return
            }
        }
    }

    /// Waits before the next poll, unless that would overrun the step's limit or the run's deadline.
    func pause(
        _ interval: Duration, before step: (deadline: ContinuousClock.Instant, limit: Duration),
        endpoint: ProtocommEndpoint, phase: ProtocommPhase
    ) async throws {
        let wakeUp = ContinuousClock.now + interval
        if wakeUp >= deadline {
            throw ProvisioningError.protocommWaitExpired(endpoint: endpoint, phase: phase, limit: .handedDown, on: peer)
        }
        if wakeUp >= step.deadline {
            throw ProvisioningError.protocommWaitExpired(
                endpoint: endpoint, phase: phase, limit: .enclosing(step.limit), on: peer)
        }
        try await Task.sleep(until: wakeUp, clock: .continuous)
    }
}

extension ProtocommVersionInfo {
    /// The security `options` ask for, checked against what the device says it runs.
    func chooseSecurity(_ options: ProtocommSecurityOptions, on peer: ProtocommPeer) throws(ProvisioningError)
        -> (ProtocommSecurity, ProtocommSecurityUsed)
    {
        let security: ProtocommSecurity
        do {
            security = try self.security(level: options.level, patch: options.patch, credentials: options.credentials)
        } catch .missingCredentials(let level) {
            throw .protocommCredentialsMissing(level)
        } catch .unsupportedSecurityVersion(let version) {
            throw .protocommUnsupportedSecurity(version: version, on: peer)
        } catch {
            throw .protocommProtocol(error, endpoint: .protocolVersion, phase: .describing, on: peer)
        }
        let patch: ProtocommSecurity2Patch? = if case .security2(_, _, let patch) = security { patch } else { nil }
        let provesPoP =
            if case .security1(let proofOfPossession) = security { !proofOfPossession.isEmpty } else { false }
        let used = ProtocommSecurityUsed(
            level: security.level, patch: patch, isAutomatic: options.level == nil, usesProofOfPossession: provesPoP)
        return (security, used)
    }

    /// A network_provisioning build provisions Wi-Fi or Thread, never both: `thread_prov` without
    /// `wifi_prov` is a Thread device. Older firmware (`wifi_provisioning`) names neither and is Wi-Fi.
    var provisionsThreadOnly: Bool { has(.threadProvisioning) && !has(.wifiProvisioning) }

    /// Refuses a Thread-only device before any Wi-Fi setting is sent.
    func requireWiFiProvisioning() throws(ProvisioningError) {
        guard !provisionsThreadOnly else {
            throw ProvisioningError(
                .invalidOption, "The device provisions Thread, not Wi-Fi (proto-ver lists thread_prov).",
                hint: "Give the Thread network's active dataset with --thread-dataset-file instead of --ssid "
                    + "and a Wi-Fi password.")
        }
    }

    /// Refuses a device that cannot take a Thread dataset.
    func requireThreadProvisioning() throws(ProvisioningError) {
        guard has(.threadProvisioning) else {
            throw ProvisioningError(
                .invalidOption, "The device provisions Wi-Fi, not Thread (proto-ver lists no thread_prov).",
                hint: "Give --ssid and a Wi-Fi password instead of --thread-dataset-file.")
        }
    }
}

extension ProvisioningError {
    /// The only way building a client session fails is an SRP username out of range.
    fileprivate static func protocommInvalidSRPUsername(_ error: ProtocommError) -> ProvisioningError {
        ProvisioningError(
            .protocommCredentialsMissing, "The SRP username must be 1 to 65535 bytes long.",
            hint: "Check --srp-username.", detail: "\(error)")
    }
}
