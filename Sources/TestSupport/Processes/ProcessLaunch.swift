public import Foundation

/// A program a test starts: what, with which environment and input, in which network namespace, and
/// for how long at most. The one way tests start helper processes, short or long-lived.
///
/// The deadline is enforced by the runner itself, so a hanging program fails its test instead of
/// stalling the whole `swift test` run.
public struct ProcessLaunch: Sendable {
    /// Absolute path of the program.
    public var executable: String
    /// Arguments after the program name.
    public var arguments: [String]
    /// Variables added to (or replacing) the test process's own environment.
    public var environment: [String: String] = [:]
    /// Bytes fed to standard input, which is then closed; without them standard input is `/dev/null`.
    public var standardInput: Data?
    /// Keeps standard input an open pipe until ``RunningProcess/closeStandardInput()`` or the end of
    /// the test process: a helper that stops at the end of its input then never outlives the tests,
    /// even when they crash. Ignored when ``standardInput`` is set.
    public var holdsStandardInput = false
    /// Directory the program starts in; the test process's own when `nil`.
    public var workingDirectory: URL?
    /// Runs the program inside this network namespace through `ip netns exec` (root only).
    public var networkNamespace: String?
    /// Where both output streams go instead of the outcome: for daemons that outlive the program
    /// (`pg_ctl start`) or chatty helpers whose output only matters when something fails.
    public var outputFile: URL?
    /// Where standard output goes when ``outputFile`` is not set; captured in the outcome by default.
    public var standardOutput = StandardOutput.captured
    /// How long the program may run before the runner kills it with SIGKILL: a bound on a hang, far above
    /// what a run needs. The debug build parses a command line in up to 0.3 s of CPU (ArgumentParser checks
    /// the command's declaration on every parse), and with every suite starting processes at once on two
    /// cores a refusal has taken over 30 s.
    public var deadline: Duration = .seconds(60)

    /// A launch of `executable` with `arguments` and the defaults above.
    public init(_ executable: String, _ arguments: [String] = []) {
        self.executable = executable
        self.arguments = arguments
    }

    /// Starts the program and returns at once; the caller waits with `RunningProcess.waitForExit()`
    /// or ends it with `RunningProcess.stop()`.
    public func start() throws -> RunningProcess {
        try RunningProcess(launching: self)
    }

    /// Starts the program, runs `body`, and kills the program when `body` ends, however it ends.
    public func withRunning<Result>(_ body: (RunningProcess) async throws -> Result) async throws -> Result {
        let process = try start()
        return try await withCleanup {
            try await body(process)
        } cleanup: {
            await process.stop()
        }
    }

    /// Runs the program to its end, sending SIGINT when `trigger` says so.
    public func run(interrupting trigger: InterruptTrigger? = nil) async throws -> ProcessOutcome {
        let process = try start()
        trigger?.arm(process)
        return await process.waitForExit()
    }

    /// Runs the program to its end, blocking the calling thread: for synchronous callers such as
    /// test conditions; async code uses ``run(interrupting:)``.
    public func runBlocking() throws -> ProcessOutcome {
        try start().waitForExitBlocking()
    }

    /// Runs the program to its end and returns its standard output; throws unless it exited 0.
    public func output() async throws -> String {
        let outcome = try await run()
        guard outcome.succeeded else { throw ProcessLaunchError.failed(try commandLine(), outcome) }
        return outcome.standardOutput
    }

    /// The program and arguments as actually started, with the `ip netns exec` prefix when needed.
    public func commandLine() throws -> [String] {
        guard let namespace = networkNamespace else { return [executable] + arguments }
        guard let ip = ExecutableLookup.path(of: "ip") else { throw ProcessLaunchError.missingTool("ip") }
        return [ip, "netns", "exec", namespace, executable] + arguments
    }
}

/// Where a program's standard output goes, for tests of what a program does when it cannot write.
public enum StandardOutput: Sendable {
    /// Read into the outcome and ``RunningProcess/standardOutputSoFar``.
    case captured
    /// This path opened for writing (`/dev/full` fails every write with ENOSPC).
    case path(String)
    /// A pipe whose reading end is closed before the program starts: every write fails with EPIPE.
    case brokenPipe
}

/// Why a program could not be run or did not succeed.
public enum ProcessLaunchError: Error, CustomStringConvertible {
    /// A tool the launch needs is not on `PATH`.
    case missingTool(String)
    /// The command line ran but did not exit 0.
    case failed([String], ProcessOutcome)
    /// `posix_spawn` or a call preparing it failed with this errno.
    case spawnFailed(String, errno: Int32)
    /// A started helper ended, or did not become ready, before its deadline.
    case notReady(String, ProcessOutcome?)

    public var description: String {
        switch self {
        case .missingTool(let name): "\(name) is not on PATH"
        case .failed(let commandLine, let outcome): "\(commandLine.joined(separator: " ")) failed: \(outcome)"
        case .spawnFailed(let what, let errno): "cannot start \(what): errno \(errno)"
        case .notReady(let what, let outcome?): "\(what) did not happen; the helper ended: \(outcome)"
        case .notReady(let what, nil): "\(what) did not happen before the start-up deadline"
        }
    }
}
