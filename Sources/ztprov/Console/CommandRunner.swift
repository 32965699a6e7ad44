import ArgumentParser
import JSONWriting
import Logging
import Provisioning

/// What a command's body gets: where to print and where to log.
struct CommandContext: Sendable {
    let console: Console
    let logger: Logger
    /// When the whole operation must be over (`--timeout`).
    let deadline: ContinuousClock.Instant
}

/// Runs a command body as the root task and turns its outcome into output and an exit status.
///
/// Success prints the final JSON result (the body prints its human result itself); a
/// ``ProvisioningError`` prints `error[CODE]` and a hint and exits with the code's status;
/// Ctrl-C, SIGTERM or SIGHUP cancels the body, lets its cleanup run, and exits 130, 143 or 129.
enum CommandRunner {
    /// What a provisioning command says when interrupted: its cleanup can take seconds (bluetoothd answers
    /// Disconnect only after its disconnect timer, NetworkManager reactivates the previous connection).
    static let releasingFirst =
        "Interrupted: releasing the device and the network first (a few seconds; Ctrl-C again quits at once)"

    static func run(
        _ options: OutputOptions,
        timeout: Duration,
        interrupted: String = releasingFirst,
        _ body: @escaping @Sendable (CommandContext) async throws(ProvisioningError) -> [JSONField]
    ) async throws {
        let console = Console(options)
        let context = CommandContext(console: console, logger: logger(console), deadline: .now + timeout)
        InterruptSignal.install()
        let work = Task { () async -> Result<[JSONField], ProvisioningError> in
            do throws(ProvisioningError) {
                return .success(try await body(context))
            } catch {
                return .failure(error)
            }
        }
        InterruptSignal.whenReceived {
            console.progress(interrupted)
            work.cancel()
        }
        let outcome = await work.value
        switch outcome {
        case .success(let fields):
            console.succeeded(fields)
        case .failure(let error):
            let shown = InterruptSignal.interruption ?? error
            console.failed(shown)
            throw ExitCode(shown.exitStatus.rawValue)
        }
    }

    /// swift-log through the console for every logger in the process, the adapters' included: debug
    /// with `--verbose` (D-Bus calls, HTTP exchanges, UDP datagrams), errors only with `--quiet`,
    /// warnings otherwise. A process runs one command, so the system is set up once.
    private static func logger(_ console: Console) -> Logger {
        let level: Logger.Level =
            switch console.verbosity {
            case .quiet: .error
            case .normal: .warning
            case .verbose: .debug
            }
        LoggingSystem.bootstrap { label in ConsoleLogHandler(console: console, label: label, logLevel: level) }
        return Logger(label: "ztprov")
    }
}
