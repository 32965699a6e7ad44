import ArgumentParser
import JSONWriting
import Provisioning

/// `ztprov doctor`: checks what the BLE and SoftAP paths need from the host, and says how to fix it.
struct DoctorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract:
            "Check the host: kernel Bluetooth, controllers, bluetoothd, rfkill, NetworkManager, Wi-Fi, permissions.",
        discussion: """
            Each check prints ok, warn or fail with a detail and, when something is wrong, a hint. BLE \
            needs kernel Bluetooth, a controller, bluetoothd, a powered adapter and an unblocked radio; \
            SoftAP needs NetworkManager with a usable Wi-Fi device and an unblocked Wi-Fi radio. Exits \
            with 3 when a path asked for with --for (default: all) cannot work.

            Examples:
              ztprov doctor
              ztprov doctor --for ble --json
            """
    )

    /// `--for`.
    enum Purpose: String, ExpressibleByArgument, CaseIterable {
        case ble
        case softap
        case all

        var paths: [DoctorCheck.Path] {
            switch self {
            case .ble: [.ble]
            case .softap: [.softap]
            case .all: DoctorCheck.Path.allCases
            }
        }
    }

    @Option(name: .customLong("for"), help: "The path that must work for exit status 0: ble, softap or all.")
    var purpose: Purpose = .all

    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await CommandRunner.run(output, timeout: .seconds(30)) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let checks = DoctorAssessment(
                findings: await DoctorProbes(handshakeTimeout: BusHandshake.timeout(by: context.deadline)).findings()
            ).checks
            return try DoctorReport(checks: checks, paths: purpose.paths).print(on: context.console)
        }
    }
}
