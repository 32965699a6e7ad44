import Foundation
import Glibc
import TestSupport
import Testing

/// What a machine needs before a test can use it, stated as Swift Testing conditions so that a test
/// that cannot run is reported as skipped with the missing piece named, never as failed or passed.
enum HostRequirements {
    /// What the harness needs for `up`: root for the network namespaces, `ip`, `dbus-daemon`, and
    /// python-dbusmock for Debian's interpreter; empty when all is there.
    static let missingForHarness: [String] = {
        var missing: [String] = []
        if geteuid() != 0 { missing.append("root (network namespaces; CI runs as root)") }
        missing += missingTools(["ip", "dbus-daemon"])
        missing += missingPythonModules(["dbusmock"])
        return missing
    }()

    /// The tools in `names` that are not on `PATH`, each described for a skip message.
    static func missingTools(_ names: [String]) -> [String] {
        names.filter { ExecutableLookup.path(of: $0) == nil }.map { "\($0) on PATH" }
    }

    /// The modules in `names` that Debian's `/usr/bin/python3` cannot import, each described for a
    /// skip message.
    static func missingPythonModules(_ names: [String]) -> [String] {
        names.filter { module in
            (try? ProcessLaunch(RepositoryLayout.python, ["-c", "import \(module)"]).runBlocking())?.succeeded != true
        }.map { "\(RepositoryLayout.python) with the Python module \($0)" }
    }

    /// A condition that holds when nothing in `missing` is missing, with a skip message naming it all.
    static func condition(_ missing: [String]) -> ConditionTrait {
        .enabled(if: missing.isEmpty, Comment(rawValue: "needs " + missing.joined(separator: ", ")))
    }
}

extension Trait where Self == ConditionTrait {
    /// Skips unless the harness can come up here (root, `ip`, `dbus-daemon`, python-dbusmock).
    static var requiresHarnessHost: Self {
        HostRequirements.condition(HostRequirements.missingForHarness)
    }

    /// Skips unless every tool in `names` is on `PATH`.
    static func requiresTools(_ names: String...) -> Self {
        HostRequirements.condition(HostRequirements.missingTools(names))
    }

    /// Skips unless Debian's Python can import every module in `names`.
    static func requiresPythonModules(_ names: String...) -> Self {
        HostRequirements.condition(HostRequirements.missingPythonModules(names))
    }
}
