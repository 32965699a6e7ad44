import Foundation
import TestSupport

/// Where the mock-bus tests' tools are, whether they are all there, and how to ask the mock things.
enum MockNMTools {
    static let dbusDaemon = PrivateSystemBus.dbusDaemon
    static let dbusSend = "/usr/bin/dbus-send"
    static let python = RepositoryLayout.python

    /// The mock did not answer a question the test asked it.
    struct Unanswered: Error, CustomStringConvertible {
        let what: String
        var description: String { "the NetworkManager mock did not answer \(what)" }
    }

    /// B's NetworkManager mock template, in the repository's harness (ZTPROV_NM_TEMPLATE overrides).
    static let nmTemplate: String =
        ProcessInfo.processInfo.environment["ZTPROV_NM_TEMPLATE"]
        ?? RepositoryLayout.harnessDirectory.appending(path: "ztharness/nm_softap_template.py").path

    static let hasBus =
        FileManager.default.isExecutableFile(atPath: dbusDaemon)
        && FileManager.default.isExecutableFile(atPath: dbusSend)

    /// Asked once, for a test condition (synchronous there).
    static let hasNMMock: Bool =
        hasBus && FileManager.default.fileExists(atPath: nmTemplate)
        && (try? ProcessLaunch(python, ["-c", "import dbusmock"]).runBlocking())?.succeeded == true

    /// Runs a short command to its end and returns its standard output, or nil when it fails. It awaits
    /// the command: tests poll the mock with it, and a blocked thread of the shared pool starves every
    /// other suite's timers on two cores.
    static func output(_ executable: String, _ arguments: [String]) async -> String? {
        guard let outcome = try? await ProcessLaunch(executable, arguments).run(), outcome.succeeded else {
            return nil
        }
        return outcome.standardOutput
    }
}
