import ArgumentParser
import Provisioning

#if canImport(Glibc)
    import Glibc
#endif

/// The `ztprov` command: provisions ESP32-based Zhiting devices over BLE (BluFi) or SoftAP (protocomm)
/// and hands them to the cloud over the LAN.
@main
struct ZTProv: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "ztprov",
        abstract: "Provision ESP32-based Zhiting smart-home devices from a Linux host.",
        discussion: """
            Exit status: 0 success, 2 usage, 3 host precondition, 4 device not found, 5 link failure, \
            6 authentication failed, 7 device could not join Wi-Fi, 8 hand-off failed, 9 timeout, \
            10 some batch units failed, 129 session hung up (SIGHUP), 130 interrupted, 143 terminated (SIGTERM).
            """,
        version: version,
        subcommands: [
            ScanCommand.self, BLECommand.self, SoftAPCommand.self, DiscoverCommand.self, HandoffCommand.self,
            DoctorCommand.self, DemoCommand.self, BatchCommand.self, ReportCommand.self,
        ]
    )

    /// Parses and runs like ArgumentParser's own `main`, except that usage errors exit with 2 (the
    /// contract's status, not ArgumentParser's 64) and print in the `error[CODE]:` / `hint:` form, and
    /// that a command whose stdout lost data never exits 0.
    ///
    /// `main` is synchronous: the command runs as a task on the global executor (nothing in ztprov runs
    /// on the main actor) while the main thread waits in `pause`. An `async` main parks the main thread
    /// with `dispatch_main`, whose `pthread_exit` unwinds that thread's stack through the unwind tables,
    /// which kept 0.5–0.9 MiB of them and of libgcc_s resident in every run (Tests/Benchmarks/README.md,
    /// Footprint).
    static func main() {
        StandardOutputHealth.install()
        Task.detached {
            let status = await parseAndRun()
            if let failure = StandardOutputHealth.failure(), status == Provisioning.ExitStatus.success.rawValue {
                UsageFailure.report(failure, arguments: CommandLine.arguments)
                Glibc.exit(failure.exitStatus.rawValue)
            }
            Glibc.exit(status)
        }
        while true { pause() }
    }

    private static func parseAndRun() async -> Int32 {
        do {
            try CommandLineText.checkRawArguments()
            if CommandLine.arguments.count == 1 { Console.write(helpMessage() + "\n", to: .standardError) }
            try CommandWord.check(Array(CommandLine.arguments.dropFirst()))
            let arguments = try StationProfile.expand(Array(CommandLine.arguments.dropFirst()))
            try CommandLineText.check(arguments)
            try ShortOptionCluster.check(arguments)
            var command = try parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return Provisioning.ExitStatus.success.rawValue
        } catch let error as ProvisioningError {
            UsageFailure.report(error, arguments: CommandLine.arguments)
            return error.exitStatus.rawValue
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                UsageFailure(message: message(for: error), arguments: CommandLine.arguments).report()
                return Provisioning.ExitStatus.usage.rawValue
            }
            let text = fullMessage(for: error)
            if !text.isEmpty {
                Console.write(text + "\n", to: code == .success ? .standardOutput : .standardError)
            }
            return code.rawValue
        }
    }
}
