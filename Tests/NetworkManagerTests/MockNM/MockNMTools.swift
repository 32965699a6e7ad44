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

    static let hasNMMock: Bool =
        hasBus && FileManager.default.fileExists(atPath: nmTemplate)
        && output(python, ["-c", "import dbusmock"]) != nil

    /// Runs a short command to its end and returns its standard output, or nil when it fails.
    static func output(_ executable: String, _ arguments: [String]) -> String? {
        guard let outcome = try? ProcessLaunch(executable, arguments).runBlocking(), outcome.succeeded else {
            return nil
        }
        return outcome.standardOutput
    }
}
