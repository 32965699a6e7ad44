/// One try at provisioning one unit on one lane; the wiring supplies it (BlueZ, NetworkManager, or
/// in-memory devices in tests).
///
/// It notes what it learns in the journal, reports human progress through `progress`, and throws a
/// ``ProvisioningError`` (or `CancellationError` on Ctrl-C) when the unit cannot be provisioned.
public typealias BatchAttempt = @Sendable (BatchAttemptContext) async throws -> Void

/// What an attempt gets to work with.
public struct BatchAttemptContext: Sendable {
    public let device: BatchDevice
    /// The adapter or Wi-Fi interface this attempt runs on.
    public let lane: String
    /// 1 for the first try at this unit, counting up with each retry.
    public let attempt: Int
    public let journal: BatchAttemptJournal
    /// When this attempt must be over.
    public let deadline: ContinuousClock.Instant
    /// A progress line about this unit, e.g. "connected, ATT MTU 185".
    public let progress: @Sendable (String) -> Void
}
