import ArgumentParser
import Foundation
import Protocomm
import Provisioning
import Synchronization

/// What `ztprov ble --protocol protocomm` needs beyond the network: how the protocomm session is
/// secured, the ESP QR payload that may carry it, and where a second password comes from.
struct ProtocommBLEOptions: ParsableArguments {
    @Option(
        name: .customLong("sec-ver"),
        help: "ESP provisioning session security: auto (as the device's proto-ver says), 0, 1 (PoP) or 2 (SRP).")
    var security: SoftAPOptions.SecurityChoice = .auto

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

    /// The QR payload, when `--qr-file` names one; a payload for SoftAP is refused.
    func qrPayload() throws(ProvisioningError) -> ESPProvisioningQRPayload? {
        guard let qrFile else { return nil }
        let text: String
        switch RegularFile.contents(of: qrFile, limit: ESPProvisioningQRPayload.maximumLength) {
        case .success(let bytes):
            guard let decoded = String(validating: bytes, as: UTF8.self) else {
                throw ProvisioningError(
                    .invalidOption, "The file given to --qr-file is not UTF-8 text.",
                    hint: "Put the QR code's text in the file.")
            }
            text = decoded.trimmingCharacters(in: .whitespacesAndNewlines)
        case .failure(let problem):
            throw ProvisioningError(
                .invalidOption, "The file given to --qr-file cannot be read: \(problem).",
                hint: "Give a readable regular file of at most \(ESPProvisioningQRPayload.maximumLength) bytes.")
        }
        let payload = try ESPProvisioningQRPayload(text)
        if payload.transport == "softap" {
            throw ProvisioningError(
                .invalidOption, "The QR payload is for a SoftAP device.",
                hint: "Provision it with `ztprov softap --ap-ssid \(payload.name)`.")
        }
        if payload.network == "thread" {
            throw ProvisioningError(
                .invalidOption, "The QR payload is for a Thread device; ztprov provisions Wi-Fi over BLE.",
                hint: "Provision Thread devices with a Thread commissioner.")
        }
        return payload
    }

    /// The session's security, from the options first, then the QR payload, then `proto-ver`.
    func securityOptions(qr: ProtocommQRDefaults?, environment: [String: String]) throws(ProvisioningError)
        -> ProtocommSecurityOptions
    {
        let level = security.level ?? qr?.security
        let pop =
            try proofOfPossession.isGiven || qr?.proofOfPossession == nil
            ? (level == .security1 || level == .security2
                ? proofOfPossession.require(environment: environment)
                : proofOfPossession.resolve(environment: environment, prompt: { _ in nil }))
            : qr?.proofOfPossession
        return ProtocommSecurityOptions(
            level: level, patch: security2Patch.flatMap(ProtocommSecurity2Patch.init(rawValue:)),
            proofOfPossession: level == .security2 ? nil : pop,
            srpUsername: srpUsername ?? qr?.username ?? "wifiprov", srpPassword: level == .security1 ? nil : pop)
    }

    /// Asks for another password after a wrong one: the file or variable given, else the terminal.
    /// A source read once is not read again, so a second wrong password ends the run.
    func retryPassphraseSource(environment: [String: String]) -> @Sendable () async throws -> Secret? {
        let options = retryPassword
        let used = RetrySourceUse()
        return {
            guard used.take() else { return nil }
            return try options.resolve(environment: environment)
        }
    }
}

/// What a QR payload contributes to the session options.
struct ProtocommQRDefaults {
    var security: ProtocommSecurityLevel?
    var proofOfPossession: Secret?
    var username: String?

    init(_ payload: ESPProvisioningQRPayload) {
        security = payload.security
        proofOfPossession = payload.proofOfPossession
        username = payload.username
    }
}

/// Whether a one-shot secret source has been read.
private final class RetrySourceUse: Sendable {
    private let used = Mutex(false)

    /// True the first time only.
    func take() -> Bool {
        used.withLock { used in
            defer { used = true }
            return !used
        }
    }
}
