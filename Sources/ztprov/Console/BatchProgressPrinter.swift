import JSONWriting
import Provisioning
import Records

/// Per-lane progress of `ztprov batch`: `[hci1] 24:0A:C4:00:00:03: connected, ATT MTU 185` on stderr,
/// one JSON event per step with `--json`, and a line per recorded attempt; on a terminal the lanes' current
/// state is drawn in place below those lines instead of a line per attempt started.
struct BatchProgressPrinter: Sendable {
    let console: Console
    /// The lanes drawn in place on a terminal, if the batch runs on one.
    var liveView: BatchLiveTerminal?

    func report(_ event: BatchEvent) {
        liveView?.apply(event)
        switch event {
        case .queued:
            break
        case .skipped(let unit, let reason):
            console.progress("\(unit.key): skipped (\(reason == .duplicate ? "named twice" : "provisioned before"))")
            console.event(
                "skipped", [JSONField("device", .string(unit.key)), JSONField("reason", .string(reason.rawValue))])
        case .passedOver(let lane, let unit, let holder):
            let station = holder.station.isEmpty ? "another station" : "\(holder.station) (\(holder.lane))"
            console.progress("[\(lane)] \(unit.key): claimed by \(station); passed over, to be tried again later")
            console.event(
                "passed-over",
                [
                    JSONField("lane", .string(lane)), JSONField("device", .string(unit.key)),
                    JSONField("held_by", .string(holder.station)), JSONField("held_on", .string(holder.lane)),
                    JSONField("claim_ends_in_ms", .int(Int(holder.expiresIn / .milliseconds(1)))),
                ])
        case .attemptStarted(let lane, let unit, let attempt):
            if liveView == nil { console.progress("[\(lane)] \(unit.key): attempt \(attempt)") }
            console.event(
                "attempt-started",
                [
                    JSONField("lane", .string(lane)), JSONField("device", .string(unit.key)),
                    JSONField("attempt", .int(attempt)),
                ])
        case .progress(let lane, let unit, let text):
            console.progress("[\(lane)] \(unit.key): \(text)", detail: true)
        case .attemptRecorded(let record, let retrying):
            recorded(record, retrying: retrying)
        case .laneStopped(let lane, let error):
            console.warning("[\(lane)] stopped taking units: error[\(error.code)]: \(error.message)")
            console.event(
                "lane-stopped", [JSONField("lane", .string(lane)), JSONField("code", .string(error.code.rawValue))])
        }
    }

    private func recorded(_ record: ProvisioningRecord, retrying: Bool) {
        let prefix = "[\(record.adapter)] \(record.deviceKey)"
        if record.succeeded {
            console.success("\(prefix): provisioned" + (record.deviceID.map { " as \($0)" } ?? ""))
        } else {
            let next = retrying ? " Retrying." : ""
            console.progress("\(prefix): error[\(record.code)]: \(record.message ?? "")\(next)")
        }
        console.event("attempt-recorded", Self.fields(record) + [JSONField("retrying", .bool(retrying))])
    }

    /// A record as the event's JSON fields, named for a live progress line (`lane`, `device`); `ztprov report`
    /// exports the full record under its column names.
    static func fields(_ record: ProvisioningRecord) -> [JSONField] {
        [
            JSONField("lane", .string(record.adapter)), JSONField("device", .string(record.deviceKey)),
            JSONField("address", .optional(record.address)), JSONField("device_id", .optional(record.deviceID)),
            JSONField("protocol", .optional(record.provisioningProtocol)),
            JSONField("security", .optional(record.security)),
            JSONField("secured_with", .optional(record.securedWith?.text)), JSONField("attempt", .int(record.attempt)),
            JSONField("final", .bool(record.isFinal)), JSONField("code", .string(record.code)),
            JSONField("steps", .object(record.steps.map { JSONField($0.name, .int($0.milliseconds)) })),
        ]
    }

    /// The tally as JSON fields.
    static func fields(_ summary: BatchSummary) -> [JSONField] {
        [
            JSONField("provisioned", .int(summary.provisioned)), JSONField("failed", .int(summary.failed)),
            JSONField("skipped", .int(summary.skipped)), JSONField("untouched", .int(summary.untouched)),
            JSONField("passed_over", .int(summary.passedOver)),
            JSONField("attempts", .int(summary.attempts)),
            JSONField(
                "failures",
                .object(summary.failuresByCode.sorted { $0.key < $1.key }.map { JSONField($0.key, .int($0.value)) })),
        ]
    }
}
