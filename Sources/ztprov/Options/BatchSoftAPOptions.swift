import ArgumentParser
import Provisioning
import Transports

/// What `batch --path softap` needs beyond the hotspot SSIDs of the input: the station-wide session
/// security and the PoP units share when their line does not carry one. The hotspot password is
/// `--ap-password-*`, shared with the BLE SoftAP-mode options.
struct BatchSoftAPOptions: ParsableArguments {
    @Option(
        name: .customLong("softap-security"),
        help: "Protocomm security: auto (as each unit's /proto-ver says), 0, 1 (PoP) or 2 (SRP).")
    var security: ProtocommSecurityChoice = .auto

    @Option(
        name: .customLong("srp-username"),
        help: ArgumentHelp("Security 2 SRP username; the PoP is its password.", valueName: "user"))
    var srpUsername: String = "wifiprov"

    @OptionGroup(title: "Proof of possession shared by units without a pop column")
    var proofOfPossession: SecretOptions<ProofOfPossessionSecret>

    @Option(
        name: .customLong("protocomm-address"),
        help: ArgumentHelp("Where units serve protocomm on their hotspot (ADDRESS[:PORT]).", valueName: "address"),
        transform: parseDeviceEndpoint)
    var device: DeviceEndpoint = .softAPDefault

    /// The request for one unit: its hotspot, its PoP (else the shared one) and the station's network.
    func request(
        for unit: BatchDevice, hotspotPassword: Secret?, sharedPoP: Secret?, network: ProtocommTargetNetwork
    ) -> SoftAPProvisioningRequest {
        SoftAPProvisioningRequest(
            hotspot: SoftAPHotspot(ssid: unit.hotspotSSID ?? unit.key, password: hotspotPassword),
            device: device, network: network,
            security: security.options(
                proofOfPossession: unit.proofOfPossession ?? sharedPoP, srpUsername: srpUsername, patch: nil))
    }
}
