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
            10 some batch units failed, 130 interrupted.
            """,
        version: version,
        subcommands: [
            ScanCommand.self, BLECommand.self, SoftAPCommand.self, DiscoverCommand.self, HandoffCommand.self,
            DoctorCommand.self, DemoCommand.self, BatchCommand.self, ReportCommand.self,
        ]
    )

    /// Parses and runs like ArgumentParser's own `main`, except that usage errors exit with 2 (the
    /// contract's status, not ArgumentParser's 64) and print in the `error[CODE]:` / `hint:` form.
    static func main() async {
        do {
            var command = try parseAsRoot(try StationProfile.expand(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as ProvisioningError {
            UsageFailure.report(error, arguments: CommandLine.arguments)
            Glibc.exit(error.exitStatus.rawValue)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            UsageFailure(message: message(for: error), arguments: CommandLine.arguments).report()
            Glibc.exit(Provisioning.ExitStatus.usage.rawValue)
        }
    }
}
