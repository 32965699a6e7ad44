public import Records
import Synchronization

/// What one attempt learned and how long each step took, kept as it happens.
///
/// The attempt fills it in while it runs, so a failed attempt is recorded with everything it got to
/// (the address it found, the security it negotiated, the steps it finished) and not only its code.
public final class BatchAttemptJournal: Sendable {
    struct State {
        var steps: [RecordedStep] = []
        var current: (name: String, since: ContinuousClock.Instant)?
        var address: String?
        var deviceID: String?
        var security: String?
        var securedWith: ProvisioningSecurity?
        var firmware = FirmwareVersions()
        var provisioningProtocol: String?
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> ContinuousClock.Instant

    /// A journal timing steps with `now` (a fixed clock in tests).
    public init(now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.now = now
    }

    /// Ends the running step and starts `step`; starting the running step again changes nothing.
    public func began(_ step: String) {
        let instant = now()
        state.withLock { state in
            guard state.current?.name != step else { return }
            Self.close(&state, at: instant)
            state.current = (step, instant)
        }
    }

    /// The device's BLE address or its access point's BSSID.
    public func found(address: String) { state.withLock { $0.address = address } }

    public func learned(deviceID: String) { state.withLock { $0.deviceID = deviceID } }

    /// The security negotiated: as the commands print it, and as the audit types it.
    public func negotiated(security: String, as typed: ProvisioningSecurity) {
        state.withLock { state in
            state.security = security
            state.securedWith = typed
        }
    }

    /// The protocol the attempt runs (`blufi`, `protocomm`, `improv`).
    public func ran(protocol name: String) { state.withLock { $0.provisioningProtocol = name } }

    /// Merges what the device said about its software into what is known.
    public func learned(firmware: FirmwareVersions) {
        state.withLock { state in
            state.firmware.bluFi = firmware.bluFi ?? state.firmware.bluFi
            state.firmware.protocomm = firmware.protocomm ?? state.firmware.protocomm
            state.firmware.device = firmware.device ?? state.firmware.device
        }
    }

    /// Ends the running step and returns everything recorded.
    func closed() -> State {
        let instant = now()
        return state.withLock { state in
            Self.close(&state, at: instant)
            return state
        }
    }

    private static func close(_ state: inout State, at instant: ContinuousClock.Instant) {
        guard let current = state.current else { return }
        state.steps.append(RecordedStep(name: current.name, duration: instant - current.since))
        state.current = nil
    }
}
