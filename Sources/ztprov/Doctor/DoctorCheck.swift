import Provisioning

/// One line of `ztprov doctor`: what was checked, how it stands, and what to do about it.
struct DoctorCheck: Sendable, Equatable {
    enum Status: String, Sendable, Equatable {
        case ok
        case warn
        case fail
    }

    /// The paths a check matters for: a failure there makes `doctor --for` that path exit 3.
    enum Path: String, Sendable, Equatable, CaseIterable {
        case ble
        case softap
    }

    /// A stable name for scripts (`kernel-bluetooth`, `bluetoothd`, …).
    var name: String
    var status: Status
    var detail: String
    /// What to do; empty for a check that is fine.
    var hint: String
    /// The catalogue code a failure corresponds to, so a script can match `ztprov ble`'s own failure.
    var code: ErrorCode?
    /// The paths that cannot work while this check fails.
    var requiredFor: Set<Path>

    init(
        _ name: String, _ status: Status, _ detail: String, hint: String = "", code: ErrorCode? = nil,
        requiredFor: Set<Path> = []
    ) {
        self.name = name
        self.status = status
        self.detail = detail
        self.hint = hint
        self.code = code
        self.requiredFor = requiredFor
    }

    /// Whether this check stops `path`.
    func blocks(_ path: Path) -> Bool {
        status == .fail && requiredFor.contains(path)
    }
}
