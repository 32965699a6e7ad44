import ArgumentParser
import Protocomm
import Provisioning
import Transports

/// What `softap` needs to reach the device: its hotspot, the host's Wi-Fi interface, where the
/// device serves protocomm, and how the session is secured.
struct SoftAPOptions: ParsableArguments {
    @Option(
        name: .customLong("ap-ssid"), help: ArgumentHelp("The device's hotspot, such as ZT_1A2B3C.", valueName: "ssid"))
    var hotspotSSID: String

    @OptionGroup(title: "Hotspot password (none for an open hotspot)")
    var hotspotPassword: SecretOptions<HotspotPasswordSecret>

    @Option(
        name: .customLong("wifi-interface"),
        help: ArgumentHelp("Wi-Fi interface that joins the hotspot (default: the first one).", valueName: "if")
    )
    var wifiInterface: String?

    @Option(
        name: .customLong("device-address"),
        help: ArgumentHelp("Where the device serves protocomm on its hotspot (ADDRESS[:PORT]).", valueName: "address"),
        transform: parseDeviceEndpoint
    )
    var device: DeviceEndpoint = .softAPDefault

    @Option(help: "Session security: auto (as the device's /proto-ver says), 0, 1 (PoP) or 2 (SRP).")
    var security: ProtocommSecurityChoice = .auto

    @Option(
        name: .customLong("sec2-patch"),
        help: ArgumentHelp("Force the security 2 nonce scheme instead of /proto-ver's (0 or 1).", valueName: "0|1"),
        transform: parsePatch
    )
    var security2Patch: ProtocommSecurity2Patch?

    @Option(
        name: .customLong("srp-username"),
        help: ArgumentHelp("Security 2 SRP username; the PoP is its password.", valueName: "user")
    )
    var srpUsername: String = "wifiprov"

    @OptionGroup(title: "Proof of possession (security 1) or SRP password (security 2)")
    var proofOfPossession: SecretOptions<ProofOfPossessionSecret>

    @Flag(name: .customLong("list-networks"), help: "Print the networks the device sees before sending the settings.")
    var listsNetworks = false

    @OptionGroup var networkCheck: NetworkCheckOptions

    func validate() throws {
        if !(1...32).contains(hotspotSSID.utf8.count) {
            throw ValidationError("--ap-ssid must be 1 to 32 bytes; it is \(hotspotSSID.utf8.count).")
        }
        if let wifiInterface, !HostText.isInterfaceName(wifiInterface) {
            throw ValidationError("--wifi-interface takes a network interface name such as wlan0 (1 to 15 characters).")
        }
        if srpUsername.isEmpty {
            throw ValidationError("--srp-username must not be empty.")
        }
        if security2Patch != nil, security != .auto, security != .security2 {
            throw ValidationError("--sec2-patch applies to security 2 only.")
        }
    }
}

/// Reads `--device-address` for protocomm: a dotted IPv4 address with an optional port (80).
func parseDeviceEndpoint(_ text: String) throws -> DeviceEndpoint {
    guard let endpoint = DeviceEndpoint(text) else {
        throw ValidationError("\(text) is not an IPv4 address with an optional port, such as 192.168.4.1:80.")
    }
    return endpoint
}

/// Reads `--sec2-patch`: 0 (one fixed nonce) or 1 (counter nonces).
private func parsePatch(_ text: String) throws -> ProtocommSecurity2Patch {
    guard let number = Int(text), let patch = ProtocommSecurity2Patch(rawValue: number) else {
        throw ValidationError("--sec2-patch takes 0 or 1.")
    }
    return patch
}
