import ArgumentParser
import BlueZ
import JSONWriting
import Provisioning
import Records
import StringEssentials

/// `ztprov batch`: the factory line. Units from a CSV file or a barcode scanner, provisioned in
/// parallel across adapters, every attempt recorded.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Provision many units in parallel across adapters and record every attempt.",
        discussion: """
            Units come from --devices FILE (validated as a whole before anything starts) or, one line \
            at a time, from stdin, as a barcode scanner types them. A line is a CSV header naming \
            columns (address, name, ssid, pop, adapter) followed by rows, a bare TARGET[,POP] (a BLE \
            address, else the advertised name for BLE or the hotspot SSID for SoftAP), or Espressif's \
            QR payload {"ver":"v1","name":…,"pop":…,"transport":…}; on --path ble a payload with \
            "transport":"ble" makes the unit run ESP protocomm (its security, username and pop) instead \
            of BluFi. The pop column is a secret: keep the file private; records never contain it.

            Each adapter (--adapters, default every powered one) or Wi-Fi interface \
            (--wifi-interfaces) works on one unit at a time. Lost links and timeouts are retried, on \
            any lane; wrong credentials and units that cannot join are not. A unit with a successful \
            record (on any station sharing the database) is skipped unless --force, so rerunning a \
            batch after a crash or Ctrl-C resumes it. Ctrl-C records the attempts in flight as \
            interrupted and leaves the rest untouched.

            --config FILE reads the station profile: a JSON object whose keys are this command's long \
            options ("ssid", "password-env", "adapters", "station", "area-id", …); options on the \
            command line win. Secrets go by file or variable name only, as on the command line.

            Exit status: 0 every unit provisioned or skipped, 10 some units failed (see `ztprov \
            report`), 2 bad input, 3 no usable adapter or records unavailable, 129 session hung up, \
            130 interrupted, 143 terminated.

            Examples:
              ztprov batch --devices units.csv --ssid Factory --password-file wifi.txt --adapters hci0,hci1
              ztprov batch --config station.json --db postgres://line@db.factory/records
            """
    )

    @Option(help: ArgumentHelp("Units, one per line; - or no option reads stdin.", valueName: "file"))
    var devices: String?

    @Option(help: "ble (BluFi through the adapters) or softap (protocomm through the Wi-Fi interfaces).")
    var path: PathChoice = .ble

    @Option(
        help: ArgumentHelp(
            "Comma-separated Bluetooth adapters (hciN, controller address or slot:N); default every powered one.",
            valueName: "list"))
    var adapters: String?

    @Option(
        name: .customLong("wifi-interfaces"),
        help: ArgumentHelp("Comma-separated Wi-Fi interfaces for --path softap (default the first).", valueName: "list")
    )
    var wifiInterfaces: String?

    @Option(help: ArgumentHelp("This station's name in the records (default the host name).", valueName: "name"))
    var station: String?

    @OptionGroup(title: "Records")
    var records: RecordStoreOptions

    @Flag(help: "Provision units again even if the records show them provisioned.")
    var force = false

    @Option(
        help: ArgumentHelp("Extra tries for a unit whose link failed or timed out (default: 2).", valueName: "count"),
        transform: DecimalInteger.parse)
    var retries: Int = 2

    @Option(
        help: ArgumentHelp("How long one attempt may take, in seconds (default: 120).", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var attemptTimeout: Double = 120

    @Option(
        help: ArgumentHelp(
            "How long a station's claim on a unit lasts unless its attempt renews it, in seconds: how long a "
                + "station that died keeps its units from the others (default: twice --attempt-timeout).",
            valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var claimLifetime: Double?

    @Option(
        help: ArgumentHelp("How long to scan for one BLE unit, in seconds (default: 15).", valueName: "seconds"),
        transform: DecimalSeconds.parse)
    var scanTimeout: Double = 15

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp("Station profile: a JSON object of long options (read before parsing).", valueName: "file"))
    var configFile: String?

    @OptionGroup(title: "Wi-Fi (the network every unit joins)")
    var wifi: WiFiOptions

    @OptionGroup(title: "SoftAP units (--path softap)")
    var softAP: BatchSoftAPOptions

    @OptionGroup(title: "Security policy")
    var securityFloor: SecurityFloorOptions

    @OptionGroup(title: "Hand-off (with --area-id)")
    var handoff: HandoffOptions

    @OptionGroup(title: "LAN")
    var lan: LANOptions

    @OptionGroup var output: OutputOptions

    enum PathChoice: String, ExpressibleByArgument, CaseIterable {
        case ble, softap

        var path: ProvisioningPath { self == .ble ? .ble : .softAP }
    }

    func validate() throws {
        try wifi.requireNetwork()
        if path == .softap, wifi.ssid == nil { throw ValidationError("Pass --ssid with the network units join.") }
        if path == .ble, wifiInterfaces != nil { throw ValidationError("--wifi-interfaces needs --path softap.") }
        if path == .softap, adapters != nil { throw ValidationError("--adapters needs --path ble.") }
        try Self.checkLanes(adapters, option: "--adapters", example: "hci0, a controller address or slot:N") {
            BlueZAdapterSelector($0)
        }
        try Self.checkLanes(wifiInterfaces, option: "--wifi-interfaces", example: "wlan0") {
            HostText.isInterfaceName($0) ? $0 : nil
        }
        if !(0...10).contains(retries) { throw ValidationError("--retries must be 0 to 10.") }
        if !(attemptTimeout > 0 && attemptTimeout <= 3600) {
            throw ValidationError("--attempt-timeout must be a number of seconds between 0 and 3600.")
        }
        if let claimLifetime, !(claimLifetime >= 0.3 && claimLifetime <= 86_400) {
            throw ValidationError("--claim-lifetime must be a number of seconds between 0.3 and 86400.")
        }
        if !(scanTimeout > 0 && scanTimeout <= 600) {
            throw ValidationError("--scan-timeout must be a number of seconds between 0 and 600.")
        }
        if handoff.areaID == nil, lan.interface != nil || lan.deviceAddress != nil {
            throw ValidationError("LAN options belong to the hand-off: pass --area-id as well.")
        }
        if lan.deviceAddress != nil { throw ValidationError("--device-address names one device; a batch has many.") }
    }

    func run() async throws {
        try await CommandRunner.run(output, timeout: .seconds(7 * 86_400)) {
            (context) async throws(ProvisioningError) -> [JSONField] in
            let plan = try await BatchPlan.make(self, context: context)
            return try await plan.run(context: context)
        }
    }

    /// Checks a lane list's syntax before the host is touched: every entry reads as a lane (`parse`), and
    /// no lane is named twice (two lanes on one controller would fight over it).
    private static func checkLanes<Lane: Hashable>(
        _ text: String?, option: String, example: String, parse: (String) -> Lane?
    ) throws {
        guard let names = list(text) else { return }
        guard !names.isEmpty else {
            throw ValidationError("\(option) names no lane; give \(example), comma-separated.")
        }
        var seen: Set<Lane> = []
        for (index, name) in names.enumerated() {
            guard let lane = parse(name) else {
                throw ValidationError("\(option): entry \(index + 1) is not \(example).")
            }
            guard seen.insert(lane).inserted else {
                throw ValidationError(
                    "\(option) names \(name) twice; each lane is one \(option == "--adapters" ? "adapter" : "interface")."
                )
            }
        }
    }

    /// The lanes' names as given, or nil for the path's default.
    static func list(_ text: String?) -> [String]? {
        text.map { $0.split(separator: ",").map { $0.trimmingSpaces() }.filter { !$0.isEmpty } }
    }
}
