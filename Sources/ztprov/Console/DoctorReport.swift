import JSONWriting
import Provisioning

/// Prints the doctor's checks (a table on stdout, or one JSON event each) and decides the outcome.
struct DoctorReport {
    let checks: [DoctorCheck]
    /// The paths that must work.
    let paths: [DoctorCheck.Path]

    /// The checks that stop `path`.
    func blockers(of path: DoctorCheck.Path) -> [DoctorCheck] {
        checks.filter { $0.blocks(path) }
    }

    /// Prints everything; returns the JSON result's fields, or throws the first blocker of a path
    /// that must work (exit 3).
    func print(on console: Console) throws(ProvisioningError) -> [JSONField] {
        for check in checks {
            console.event("check", Self.fields(check))
        }
        console.output(table)
        for path in DoctorCheck.Path.allCases {
            let blockers = blockers(of: path).map(\.name)
            console.output(
                "\(Self.title(path)): "
                    + (blockers.isEmpty ? "ready" : "blocked by " + blockers.joined(separator: ", ")))
        }
        let readiness = DoctorCheck.Path.allCases.map { JSONField($0.rawValue, .bool(blockers(of: $0).isEmpty)) }
        if let first = paths.lazy.flatMap(blockers(of:)).first {
            throw ProvisioningError(
                first.code ?? .kernelBluetoothMissing, "\(first.name): \(first.detail)", hint: first.hint)
        }
        return [JSONField("ready", .object(readiness))]
    }

    /// `STATUS  CHECK  DETAIL` rows, hints indented under failing and warning rows.
    var table: String {
        let width = checks.map(\.name.count).max() ?? 0
        return checks.map { check in
            let name = check.name + String(repeating: " ", count: width - check.name.count)
            let row = "\(check.status.rawValue.uppercased().padding(4))  \(name)  \(check.detail)"
            return check.hint.isEmpty || check.status == .ok ? row : row + "\n      hint: \(check.hint)"
        }.joined(separator: "\n")
    }

    static func fields(_ check: DoctorCheck) -> [JSONField] {
        [
            JSONField("name", .string(check.name)), JSONField("status", .string(check.status.rawValue)),
            JSONField("detail", .string(check.detail)),
            JSONField("hint", .optional(check.hint.isEmpty ? nil : check.hint)),
            JSONField("code", .optional(check.code?.rawValue)),
            JSONField(
                "required_for",
                .array(DoctorCheck.Path.allCases.filter(check.requiredFor.contains).map { .string($0.rawValue) })),
        ]
    }

    private static func title(_ path: DoctorCheck.Path) -> String {
        path == .ble ? "BLE" : "SoftAP"
    }
}

extension String {
    fileprivate func padding(_ length: Int) -> String {
        self + String(repeating: " ", count: max(0, length - count))
    }
}
