/// The running count behind ``BatchSummary``, shared by the lanes.
actor BatchTally {
    private(set) var summary = BatchSummary()

    func skipped() { summary.skipped += 1 }

    func passedOver() { summary.passedOver += 1 }

    /// One recorded attempt; `code` is its result when it settled the unit, nil when a retry follows.
    func recorded(final code: String?) {
        summary.attempts += 1
        guard let code else { return }
        if code == "ok" {
            summary.provisioned += 1
        } else {
            summary.failed += 1
            summary.failuresByCode[code, default: 0] += 1
        }
    }

    /// An attempt cut short by Ctrl-C: recorded, but the unit counts as untouched for the tally.
    func interruptedAttempt() {
        summary.attempts += 1
        summary.untouched += 1
    }
}
