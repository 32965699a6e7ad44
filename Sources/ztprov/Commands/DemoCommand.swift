import ArgumentParser
import BluFi
import JSONWriting
import Protocomm
import Provisioning
import ZhitingLAN

/// `ztprov demo`: a provisioning over each BLE protocol and over SoftAP, with the hand-off for each device
/// that names itself, against emulated devices inside the process; shows what a real run looks like
/// without radio, root or devices.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Provision emulated devices over BluFi, Improv, ESP protocomm and SoftAP, and hand them off; no radio "
            + "needed.",
        discussion: """
            Runs the same flows and prints the same steps as `ztprov ble` (once per BLE protocol), \
            `ztprov softap` and `ztprov handoff` (for the BluFi and SoftAP devices, which send the ID the \
            hand-off needs), but the devices, the BLE link, the host's Wi-Fi and the LAN are emulated in \
            memory. Nothing is sent on any network. The demo's passwords, PoP and token are fixed made-up \
            values, and like real secrets they never appear in the output.

            Examples:
              ztprov demo
              ztprov demo --blufi-security v2 --softap-security 2 --json
            """
    )

    @Option(
        name: .customLong("blufi-security"),
        help: "BluFi security of the emulated device: none, v1 (BluFi 1.3) or v2 (BluFi 1.4).")
    var bluFiSecurity: BluFiSecurityOption = .v1

    @Option(
        name: .customLong("softap-security"),
        help: "Protocomm security of the emulated SoftAP device: 0, 1 (PoP) or 2 (SRP).")
    var softAPSecurity: SoftAPSecurityOption = .one

    @OptionGroup var timeout: TimeoutOption

    @OptionGroup var output: OutputOptions

    func run() async throws {
        try await CommandRunner.run(output, timeout: timeout.duration(default: .seconds(120))) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            try await DemoWiring.run(self, context: context)
        }
    }

    /// `--blufi-security`.
    enum BluFiSecurityOption: String, ExpressibleByArgument, CaseIterable {
        case none
        case v1
        case v2

        var scheme: BluFiSecurityScheme {
            switch self {
            case .none: .none
            case .v1: .v1
            case .v2: .v2
            }
        }

        /// `ble`'s options for the device: `--security auto` finds V1 and V2 from its version, but `none`
        /// must be chosen, as a stock device never offers it.
        var bleArguments: [String] { self == .none ? ["--security", "none"] : [] }
    }

    /// `--softap-security`.
    enum SoftAPSecurityOption: String, ExpressibleByArgument, CaseIterable {
        case zero = "0"
        case one = "1"
        case two = "2"

        var level: ProtocommSecurityLevel {
            switch self {
            case .zero: .security0
            case .one: .security1
            case .two: .security2
            }
        }
    }
}
