import Foundation

/// A process told apart from any later one that reuses its PID: the PID together with its start time.
struct ProcessIdentity: Hashable, Sendable {
    /// The process ID.
    let pid: Int32
    /// Clock ticks from boot to the start of the process (field 22 of `/proc/<pid>/stat`).
    let startTime: UInt64

    /// The live process that has `pid` now, or `nil` when there is none or only a zombie.
    init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let afterName = stat.split(separator: ")").last
        else { return nil }
        // After the parenthesised name: field 3 (state) is first, field 22 (start time) the 20th.
        let fields = afterName.split(separator: " ")
        guard fields.count > 19, fields[0] != "Z", let startTime = UInt64(fields[19]) else { return nil }
        self.pid = pid
        self.startTime = startTime
    }

    /// True while this very process runs.
    var isAlive: Bool {
        ProcessIdentity(pid: pid) == self
    }
}
