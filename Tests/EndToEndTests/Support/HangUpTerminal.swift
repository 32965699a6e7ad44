import Foundation
import TestSupport

/// `hang_up_pty.py`: runs `ztprov` on a pseudo-terminal that is its controlling terminal, then hangs the
/// terminal up (closes it, as a dropped SSH session does) or sends a signal once the terminal shows a text.
struct HangUpTerminal: Decodable {
    /// Exit status, or minus the signal; nil when the run did not end within the helper's limit.
    let status: Int?
    /// What the terminal showed up to the event.
    let before: String
    /// What it showed after a signal (nil after a hang-up, when there is no terminal left to show it).
    let after: String?

    /// The event: close the terminal, or send a signal and keep it open.
    enum Event {
        case hangUp
        case signal(Int32)
    }

    /// Runs `launch` (a `ztprov` launch) on a terminal; stdin stays an open pipe without data when
    /// `stdinPipe`, stdout goes to `stdoutFile` when given.
    static func run(
        _ launch: ProcessLaunch, after text: String, _ event: Event, stdinPipe: Bool = false,
        stdoutFile: String? = nil
    ) async throws -> HangUpTerminal {
        var arguments = [RepositoryLayout.harnessDirectory.appending(path: "hang_up_pty.py").path, "--after", text]
        switch event {
        case .hangUp: arguments.append("--hang-up")
        case .signal(let number): arguments += ["--signal", "\(number)"]
        }
        if stdinPipe { arguments.append("--stdin-pipe") }
        if let stdoutFile { arguments += ["--stdout-file", stdoutFile] }
        arguments += ["--timeout", "40", "--", launch.executable] + launch.arguments
        var helper = ProcessLaunch("/usr/bin/python3", arguments)
        helper.environment = launch.environment
        helper.networkNamespace = launch.networkNamespace
        helper.deadline = .seconds(60)
        let outcome = try await helper.run()
        return try JSONDecoder().decode(HangUpTerminal.self, from: Data(outcome.standardOutput.utf8))
    }
}
