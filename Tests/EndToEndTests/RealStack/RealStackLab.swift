import Foundation
import Glibc
import TestSupport
import Testing

/// One boot of the real-stack lab (`Tests/RealStack/run`) per test process: a QEMU guest with
/// Debian's kernel runs the built `ztprov` against the real bluetoothd, NetworkManager and
/// wpa_supplicant, with Bumble-driven hci_vhci controllers and mac80211_hwsim radios, and records
/// every scenario's facts in `results.json`. The tests read those facts; the first one to ask boots
/// the guest, the others wait for the same boot.
actor RealStackLab {
    static let shared = RealStackLab()

    /// A scenario's record: `status` (exit status or "timeout"), `stdout`, `stderr`, `seconds`, and
    /// what the daemons showed afterwards; `lab_error` when the lab itself failed to set it up;
    /// `daemons_ended` for a daemon that ended on its own during it.
    struct Scenario: Sendable, CustomStringConvertible {
        let name: String
        let record: JSONValue

        var exitStatus: Int? {
            guard case .number(let value) = record["status"] else { return nil }
            return Int(value)
        }
        var standardError: String { record["stderr"]?.string ?? "" }
        var standardOutput: String { record["stdout"]?.string ?? "" }
        var everything: String { standardOutput + standardError }
        var seconds: Double {
            guard case .number(let value) = record["seconds"] else { return .infinity }
            return value
        }
        subscript(key: String) -> JSONValue? { record[key] }

        var description: String {
            "\(name): status \(record["status"].map { "\($0)" } ?? "none") in \(seconds)s"
                + (record["lab_error"]?.string.map { ", lab error: \($0)" } ?? "")
                + (record["daemons_ended"].map { ", daemons that ended during it (exit status): \($0)" } ?? "")
                + "\nstderr:\n\(standardError.suffix(3000))"
        }
    }

    private var boot: Task<JSONValue, any Error>?

    /// The record of scenario `name` from this process's one lab boot.
    func scenario(_ name: String) async throws -> Scenario {
        let results = try await bootOnce()
        let record = results["scenarios"]?.array?.first { $0["name"]?.string == name }
        guard let record else {
            throw RealStackLabError.scenarioMissing(name, boot: results["boot_failure"]?.string ?? "finished")
        }
        return Scenario(name: name, record: record)
    }

    private func bootOnce() async throws -> JSONValue {
        if let boot { return try await boot.value }
        let task = Task { try await Self.runLab() }
        boot = task
        return try await task.value
    }

    /// Boots the lab, or with `ZTPROV_REAL_STACK_RESULTS=DIR` judges the results a finished
    /// `Tests/RealStack/run --results DIR` left (to check the tests without booting again).
    private static func runLab() async throws -> JSONValue {
        if let earlier = ProcessInfo.processInfo.environment["ZTPROV_REAL_STACK_RESULTS"] {
            let data = try Data(contentsOf: URL(fileURLWithPath: earlier).appending(path: "results.json"))
            return try JSONDecoder().decode(JSONValue.self, from: data)
        }
        let results = FileManager.default.temporaryDirectory.appending(path: "ztprov-realstack-\(getpid())")
        // One boot takes about 5 minutes on two idle cores; with seven builds beside it, 23 were measured.
        var arguments = ["--results", results.path, "--ztprov", try binary, "--timeout", "1800"]
        if let package = givenPackage { arguments += ["--deb", package] }
        var launch = ProcessLaunch(RepositoryLayout.root.appending(path: "Tests/RealStack/run").path, arguments)
        launch.deadline = .seconds(1860)
        let outcome = try await launch.run()
        // A guest that ran out of time still leaves the scenarios it finished (results.json is rewritten
        // after each): those are judged, the others fail as missing, naming how the boot ended.
        guard let data = try? Data(contentsOf: results.appending(path: "results.json")) else {
            throw RealStackLabError.bootFailed("\(outcome)")
        }
        var document = try JSONDecoder().decode(JSONValue.self, from: data)
        if outcome.exitStatus != 0, case .object(var members) = document {
            members["boot_failure"] = .string(outcome.standardError)
            document = .object(members)
        }
        return document
    }

    /// The ztprov the guest runs: `ZTPROV_REAL_STACK_ZTPROV` (`Tests/run-tests` names the release binary the
    /// package ships, which also starts in a fraction of the debug build's time under emulation), else the
    /// debug build the tests run.
    private static var binary: String {
        get throws {
            if let given = ProcessInfo.processInfo.environment["ZTPROV_REAL_STACK_ZTPROV"] { return given }
            return try ZTProvProcess.executable()
        }
    }

    /// Whether the lab runs here: asked for with `ZTPROV_REAL_STACK=1` (CI runs it as a step of its own,
    /// after the other tests, because its guest keeps both cores busy and would starve their deadlines),
    /// root, and QEMU, Debian's 6.1 kernel and the Bumble venv installed.
    static let missing: [String] = {
        var missing: [String] = []
        let environment = ProcessInfo.processInfo.environment
        if !["1", "required"].contains(environment["ZTPROV_REAL_STACK"]) {
            missing.append("ZTPROV_REAL_STACK=1 (`ZTPROV_REAL_STACK=1 swift test --filter RealStackLabTests`)")
        }
        if geteuid() != 0 { missing.append("root (CI runs as root)") }
        missing += HostRequirements.missingTools(["qemu-system-x86_64", "hostapd", "wpa_supplicant", "NetworkManager"])
        if !FileManager.default.isExecutableFile(atPath: "/usr/lib/polkit-1/polkitd") { missing.append("polkitd") }
        let kernels = (try? FileManager.default.contentsOfDirectory(atPath: "/boot")) ?? []
        if !kernels.contains(where: { $0.hasPrefix("vmlinuz-6.1.") }) {
            missing.append("Debian 12's linux-image-amd64 in /boot")
        }
        let venv = RepositoryLayout.root.appending(path: ".build/realstack/venv/bin/python").path
        if !FileManager.default.isExecutableFile(atPath: venv) {
            missing.append("the Bumble venv (Tests/RealStack/setup-venv)")
        }
        return missing
    }()

    /// The Debian package the lab installs for its package scenarios: `ZTPROV_DEB_PATH`, which
    /// `Tests/run-tests` sets after `bash .ci/build-deb` (the lab does not build it: a release build inside
    /// `swift test` would wait for the build lock `swift test` holds).
    static let givenPackage: String? = {
        guard let path = ProcessInfo.processInfo.environment["ZTPROV_DEB_PATH"],
            FileManager.default.fileExists(atPath: path)
        else { return nil }
        return path
    }()

    /// The package scenarios skip without the package, naming it, except under CI (`CI` set), where a
    /// missing package fails them.
    static var packageCondition: ConditionTrait {
        .enabled(
            if: givenPackage != nil || ProcessInfo.processInfo.environment["CI"] != nil,
            "the lab's package scenarios need ZTPROV_DEB_PATH naming the package (bash .ci/build-deb)")
    }

    /// Skips with the missing pieces named; with `ZTPROV_REAL_STACK=required` (CI) a missing piece is a
    /// failure instead, so the lab can never be skipped there unnoticed.
    static var condition: ConditionTrait {
        let mustRun = ProcessInfo.processInfo.environment["ZTPROV_REAL_STACK"] == "required"
        return .enabled(
            if: missing.isEmpty || mustRun,
            Comment(rawValue: "real-stack lab needs " + missing.joined(separator: ", ")))
    }
}

/// Why the lab gave no record.
enum RealStackLabError: Error, CustomStringConvertible {
    case bootFailed(String)
    case scenarioMissing(String, boot: String)

    var description: String {
        switch self {
        case .bootFailed(let detail): "the real-stack lab did not finish: \(detail)"
        case .scenarioMissing(let name, let boot): "the real-stack lab recorded no scenario \(name) (boot: \(boot))"
        }
    }
}
