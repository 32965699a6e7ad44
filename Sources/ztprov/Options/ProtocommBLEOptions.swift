import ArgumentParser
import FoundationEssentials
import Protocomm
import Provisioning

/// What `ztprov ble --protocol protocomm` needs beyond the network: how the protocomm session is
/// secured, the ESP QR payload that may carry it, and where a second password comes from.
struct ProtocommBLEOptions: ParsableArguments {
    @Option(
        name: .customLong("sec-ver"),
        help: "ESP provisioning session security: auto (as the device's proto-ver says), 0, 1 (PoP) or 2 (SRP).")
    var security: ProtocommSecurityChoice = .auto

    @Option(
        name: .customLong("sec2-patch"),
        help: ArgumentHelp("Force the security 2 nonce scheme instead of proto-ver's (0 or 1).", valueName: "0|1"))
    var security2Patch: Int?

    @Option(
        name: .customLong("srp-username"),
        help: ArgumentHelp("Security 2 SRP username (default: the QR payload's, else wifiprov).", valueName: "user"))
    var srpUsername: String?

    @OptionGroup(title: "Proof of possession (security 1) or SRP password (security 2)")
    var proofOfPossession: SecretOptions<ProofOfPossessionSecret>

    @Option(
        name: .customLong("qr-file"),
        help: ArgumentHelp(
            "Read the device's ESP provisioning QR payload (JSON: name, pop, security, username) from this file.",
            valueName: "file"))
    var qrFile: String?

    @OptionGroup(title: "Second Wi-Fi password (after the device rejected the first and was reset)")
    var retryPassword: SecretOptions<RetryWiFiPasswordSecret>

    @Option(
        name: .customLong("thread-dataset-file"),
        help: ArgumentHelp(
            "Provision Thread: the network's active dataset as hex (`ot-ctl dataset active -x`), from this file.",
            valueName: "file"))
    var threadDatasetFile: String?

    @Flag(
        name: .customLong("keep-bond"),
        help: "Keep the bond made when the device insists on pairing (by default it is removed afterwards).")
    var keepsBond = false

    /// The first option given that only protocomm uses, so another protocol refuses it rather than drop it.
    var firstOption: String? {
        if security != .auto { return "--sec-ver" }
        if security2Patch != nil { return "--sec2-patch" }
        if srpUsername != nil { return "--srp-username" }
        if proofOfPossession.isGiven { return "--pop-file/--pop-env" }
        if qrFile != nil { return "--qr-file" }
        if threadDatasetFile != nil { return "--thread-dataset-file" }
        if retryPassword.isGiven { return "--retry-password-file/--retry-password-env" }
        if keepsBond { return "--keep-bond" }
        return nil
    }

    func validate() throws {
        if let security2Patch, ProtocommSecurity2Patch(rawValue: security2Patch) == nil {
            throw ValidationError("--sec2-patch takes 0 or 1.")
        }
        if security2Patch != nil, security != .auto, security != .security2 {
            throw ValidationError("--sec2-patch applies to security 2 only.")
        }
        if let srpUsername, srpUsername.isEmpty { throw ValidationError("--srp-username must not be empty.") }
    }
}
