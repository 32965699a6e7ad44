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
