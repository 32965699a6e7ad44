extension ProvisioningError {
    /// Line `line` of the batch input cannot be used, and why.
    public static func batchBadInput(line: Int, _ reason: String) -> ProvisioningError {
        ProvisioningError(
            .batchBadInput, "Batch input line \(line) cannot be used: \(reason).",
            hint: "Fix the line; see `ztprov batch --help` for the accepted line shapes.")
    }

    /// A unit pinned to `lane`, which is not one of the batch's `lanes`: no lane may ever take it.
    public static func batchUnknownLane(_ device: BatchDevice, lane: String, lanes: [String]) -> ProvisioningError {
        ProvisioningError(
            .batchUnknownLane,
            "Batch input line \(device.line): \(device.key) is pinned to \(lane), which is not a lane of this batch "
                + "(\(lanes.joined(separator: ", "))).",
            hint: ErrorCode.batchUnknownLane.hint)
    }

    /// A unit pinned to a lane that stopped before it took the unit.
    static func batchLaneStopped(_ device: BatchDevice, lane: String, _ cause: ProvisioningError) -> ProvisioningError {
        ProvisioningError(
            cause.code, "Not attempted: \(device.key) is pinned to \(lane), which stopped: \(cause.message)",
            hint: cause.hint, detail: cause.detail)
    }

    /// The station's claim on the unit ran out while it worked and another station took the unit.
    static func batchClaimLost(_ device: BatchDevice) -> ProvisioningError {
        ProvisioningError(
            .batchClaimLost,
            "The claim on \(device.key) ran out before this station could renew it, and another station took the "
                + "unit; the attempt stopped.",
            hint: ErrorCode.batchClaimLost.hint)
    }

    /// The verdict of a batch whose every unit was tried but some failed.
    public static func batchIncomplete(failed: Int, of total: Int) -> ProvisioningError {
        ProvisioningError(
            .batchIncomplete, "\(failed) of \(total) unit\(total == 1 ? "" : "s") could not be provisioned.",
            hint: "Run `ztprov report --final-only` for the reasons; rerunning the batch retries only those units.")
    }
}
