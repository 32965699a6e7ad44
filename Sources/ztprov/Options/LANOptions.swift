import ArgumentParser
import Provisioning
import Transports
import ZhitingLAN

/// How to reach devices on the LAN; shared by `discover`, `handoff` and the provisioning commands.
struct LANOptions: ParsableArguments {
    @Option(
        name: .customLong("lan-interface"),
        help: ArgumentHelp(
            "Network interface on the devices' LAN (wlan0, eth0); hellos are broadcast on it only.",
            valueName: "if"
        )
    )
    var interface: String?

    @Option(
        help: ArgumentHelp(
            "Ask the device at this IPv4 address directly instead of broadcasting (ADDRESS[:PORT]).",
            valueName: "address"
        )
    )
    var deviceAddress: String?

    @Option(
        help: ArgumentHelp("UDP port the devices listen on (default: \(LANTarget.standardPort)).", valueName: "port"),
        transform: DecimalInteger.parse)
    var lanPort: UInt16 = LANTarget.standardPort

    @Option(
        help: ArgumentHelp(
            "Local UDP port; 0 picks a free one (use it when another program holds 54321) (default: \(LANTarget.standardPort)).",
            valueName: "port"
        ),
        transform: DecimalInteger.parse
    )
    var localPort: UInt16 = LANTarget.standardPort

    @Option(help: "Reserved field of requests: 0000 (iOS 2.0.0) or ffff (Android, older iOS).")
    var lanReserved: ReservedChoice = .zero

    @Option(help: "Checksum field of requests: key (as the apps send) or digest (MD5 of the packet).")
    var lanChecksum: ChecksumChoice = .key

    func validate() throws {
        if lanPort == 0 { throw ValidationError("--lan-port must be 1 to 65535; devices never listen on 0.") }
        if let interface, !HostText.isInterfaceName(interface) {
            throw ValidationError("--lan-interface takes a network interface name such as wlan0 (1 to 15 characters).")
        }
        if let deviceAddress, DatagramEndpoint(parsing: deviceAddress, defaultPort: lanPort) == nil {
            throw ValidationError("--device-address \(deviceAddress) is not an IPv4 address with an optional port.")
        }
    }

    /// The flows' target: this device (if named), at the given address or by broadcast.
    func target(deviceID: ZhitingDeviceID?) -> LANTarget {
        LANTarget(
            deviceID: deviceID,
            address: deviceAddress.flatMap { DatagramEndpoint(parsing: $0, defaultPort: lanPort) },
            port: lanPort
        )
    }

    var framing: ZhitingRequestFraming {
        ZhitingRequestFraming(
            reserved: lanReserved == .zero ? .zero : .allOnes,
            checksum: lanChecksum == .key ? .sessionKey : .packetDigest
        )
    }

    enum ReservedChoice: String, ExpressibleByArgument, CaseIterable {
        case zero = "0000"
        case allOnes = "ffff"
    }

    enum ChecksumChoice: String, ExpressibleByArgument, CaseIterable {
        case key
        case digest
    }
}

/// Reads `--device-id`: 12 hex digits, with or without `:`/`-` separators.
func parseDeviceID(_ text: String) throws -> ZhitingDeviceID {
    guard let id = ZhitingDeviceID(text) else {
        throw ValidationError("\(text) is not a device ID: expected 12 hex digits such as a1b2c3d4e5f6.")
    }
    return id
}
