public import Records

/// What the batch reports as it goes; the command turns these into per-lane progress lines and JSON events.
public enum BatchEvent: Sendable {
    /// The unit joined the queue (counted for progress and the time left).
    case queued(BatchDevice)
    /// The unit is not tried: it was provisioned before (and `--force` is off), or it came twice.
    case skipped(BatchDevice, BatchSkipReason)
    /// Another station holds the unit: it is not tried now, and waits for that claim to end.
    case passedOver(lane: String, BatchDevice, heldBy: UnitClaimHeld)
    /// A lane took the unit.
    case attemptStarted(lane: String, BatchDevice, attempt: Int)
    /// A progress line from the attempt.
    case progress(lane: String, BatchDevice, String)
    /// The attempt ended and is recorded; `retrying` says whether the unit goes back into the queue.
    case attemptRecorded(ProvisioningRecord, retrying: Bool)
    /// The lane stopped taking units because it is unusable.
    case laneStopped(lane: String, ProvisioningError)
}

/// Why a unit was not tried.
public enum BatchSkipReason: String, Sendable, Equatable {
    /// The records already hold a successful attempt for it.
    case alreadyProvisioned = "already-provisioned"
    /// The input named it before in this batch.
    case duplicate
}

/// Where batch events go.
public typealias BatchEventSink = @Sendable (BatchEvent) -> Void
