import Foundation

/// A command a test runs: what, with which environment and input, in which network namespace, and for
/// how long at most.
///
/// The deadline is enforced by the runner itself, so a hanging tool fails its test instead of stalling
/// the whole `swift test` run.
struct ProcessLaunch: Sendable {
    /// Absolute path of the program.
    var executable: String
    /// Arguments after the program name.
    var arguments: [String]
    /// Variables added to (or replacing) the test process's own environment.
    var environment: [String: String] = [:]
    /// Bytes fed to standard input, which is then closed; without them standard input is `/dev/null`.
    var standardInput: Data?
    /// Directory the program starts in; the test process's own when `nil`.
    var workingDirectory: URL?
    /// Runs the program inside this network namespace through `ip netns exec` (root only).
    var networkNamespace: String?
    /// How long the program may run before the runner kills it with SIGKILL.
    var deadline: Duration = .seconds(30)

    /// A launch of `executable` with `arguments` and the defaults above.
    init(_ executable: String, _ arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Starts the program and returns at once; the caller waits with `RunningProcess.waitForExit()`.
    func start() throws -> RunningProcess {
        try RunningProcess(launching: self)
    }

    /// Runs the program to its end, sending SIGINT when `trigger` says so.
    func run(interrupting trigger: InterruptTrigger? = nil) async throws -> ProcessOutcome {
        let process = try start()
        let interrupter = trigger.map { trigger in Task { await trigger.interrupt(process) } }
        let outcome = await process.waitForExit()
        interrupter?.cancel()
        return outcome
    }

    /// Runs the program to its end and returns its standard output; throws unless it exited 0.
    func output() async throws -> String {
        let outcome = try await run()
        guard outcome.succeeded else { throw ProcessLaunchError.failed(try commandLine(), outcome) }
        return outcome.standardOutput
    }

    /// The program and arguments as actually started, with the `ip netns exec` prefix when needed.
    func commandLine() throws -> [String] {
        guard let namespace = networkNamespace else { return [executable] + arguments }
        guard let ip = ExecutableLookup.path(of: "ip") else { throw ProcessLaunchError.missingTool("ip") }
        return [ip, "netns", "exec", namespace, executable] + arguments
    }
}

/// Why a program could not be run or did not succeed.
enum ProcessLaunchError: Error, CustomStringConvertible {
    /// A tool the launch needs is not on `PATH`.
    case missingTool(String)
    /// The command line ran but did not exit 0.
    case failed([String], ProcessOutcome)

    var description: String {
        switch self {
        case .missingTool(let name): "\(name) is not on PATH"
        case .failed(let commandLine, let outcome): "\(commandLine.joined(separator: " ")) failed: \(outcome)"
        }
    }
}
