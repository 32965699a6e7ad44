import Provisioning
import Records

/// What the live batch view shows: one line per lane (unit, step, time on the unit), then the totals,
/// the rate and the time left. Pure: events and times in, lines of at most a given width out.
struct BatchLiveView: Sendable, Equatable {
    struct Lane: Sendable, Equatable {
        let name: String
        var unit: String?
        var step = ""
        var since: Duration = .zero
    }

    private(set) var lanes: [Lane]
    private(set) var total = 0
    private(set) var provisioned = 0
    private(set) var failed = 0
    private(set) var skipped = 0
    private(set) var retries = 0
    /// Units another station held when a lane took them.
    private(set) var passedOver = 0
    /// When the batch started, on the command's clock.
    let startedAt: Duration

    init(lanes: [String], startedAt: Duration) {
        self.lanes = lanes.map { Lane(name: $0) }
        self.startedAt = startedAt
    }

    /// Takes in one event that happened at `time` (the command's clock).
    mutating func apply(_ event: BatchEvent, at time: Duration) {
        switch event {
        case .queued:
            total += 1
        case .skipped(_, let reason):
            if reason == .duplicate { total += 1 }
            skipped += 1
        case .passedOver:
            passedOver += 1
        case .attemptStarted(let lane, let unit, let attempt):
            update(lane) { $0 = Lane(name: lane, unit: unit.key, step: "attempt \(attempt)", since: time) }
        case .progress(let lane, let unit, let text):
            update(lane) { if $0.unit == unit.key { $0.step = text } }
        case .attemptRecorded(let record, let retrying):
            if retrying {
                retries += 1
            } else if record.isFinal {
                if record.succeeded { provisioned += 1 } else { failed += 1 }
            }
            update(record.adapter) { $0 = Lane(name: record.adapter) }
        case .laneStopped(let lane, let error):
            update(lane) { $0 = Lane(name: lane, step: "stopped: \(error.code)") }
        }
    }

    private mutating func update(_ lane: String, _ change: (inout Lane) -> Void) {
        for index in lanes.indices where lanes[index].name == lane { change(&lanes[index]) }
    }

    /// The lines to draw at `now`, none longer than `width` characters (a terminal wraps a full-width line
    /// on some emulators, which would throw the redraw off by a row).
    func frame(at now: Duration, width: Int) -> [String] {
        let laneWidth = lanes.map(\.name.count).max() ?? 0
        let unitWidth = lanes.compactMap(\.unit?.count).max() ?? 0
        var lines = lanes.map { lane -> String in
            let name = lane.name.padding(laneWidth)
            guard let unit = lane.unit else { return "\(name)  \(lane.step.isEmpty ? "idle" : lane.step)" }
            return
                "\(name)  \(unit.padding(unitWidth))  \(ElapsedTime(now - lane.since).seconds.padding(6, left: true))  \(lane.step)"
        }
        lines.append(totals(at: now))
        return lines.map { $0.clipped(to: max(1, width - 1)) }
    }

    private func totals(at now: Duration) -> String {
        let done = provisioned + failed + skipped
        let busy = lanes.filter { $0.unit != nil }.count
        var parts = ["\(done)/\(total) done", "\(provisioned) ok", "\(failed) failed"]
        if skipped > 0 { parts.append("\(skipped) skipped") }
        if retries > 0 { parts.append("\(retries) retried") }
        if passedOver > 0 { parts.append("\(passedOver) held elsewhere") }
        parts.append("\(busy) in progress")
        let minutes = (now - startedAt) / .seconds(60)
        let tried = provisioned + failed
        guard tried > 0, minutes > 0 else { return parts.joined(separator: " · ") + " · ETA –" }
        let rate = Double(tried) / minutes
        let tenths = Int((rate * 10).rounded())
        parts.append("\(tenths / 10).\(tenths % 10)/min")
        let left = max(0, total - done)
        parts.append("ETA " + Self.clock(seconds: Int((Double(left) / rate * 60).rounded(.up))))
        return parts.joined(separator: " · ")
    }

    /// `0:07`, `12:30`, `1:02:03`.
    static func clock(seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}

extension String {
    fileprivate func padding(_ width: Int, left: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - count))
        return left ? fill + self : self + fill
    }
}
