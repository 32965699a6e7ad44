import Protocomm

/// Where the conversation with the device stands, which decides what a failure means: a dropped
/// connection is a wrong PoP while the device judges our proof, and "outcome unknown" once the
/// device has its credentials (a SoftAP device's hotspot may move channel as it joins).
enum ProtocommPhase: Sendable {
    /// Asking `proto-ver`.
    case describing
    /// Running the handshake; `awaitingVerdict` while the device checks our PoP or SRP proof.
    case handshake(ProtocommSecurityLevel, awaitingVerdict: Bool)
    /// Encrypted requests before "apply".
    case session(ProtocommSecurityUsed)
    /// Status polls after "apply" for the network `ssid`.
    case awaitingConnection(ssid: String)
    /// Thread status polls after "apply" for the network `network` (its name, or "the Thread network").
    case awaitingAttach(network: String)
}

/// Which limit ended a wait.
enum ProtocommLimit: Sendable {
    /// The request's own limit (``ProtocommTimeouts/exchange`` or ``ProtocommTimeouts/scan``).
    case request(Duration)
    /// The step's limit, such as ``ProtocommTimeouts/connect``.
    case step(Duration)
    /// The deadline of the whole run.
    case run

    /// When a wait this limit ended gave up, as words that follow what was awaited: " after 30 s" or
    /// " when the time limit ran out".
    var endingText: String {
        switch self {
        case .request(let duration), .step(let duration): " after \(secondsText(duration))"
        case .run: " when the time limit ran out"
        }
    }
}
