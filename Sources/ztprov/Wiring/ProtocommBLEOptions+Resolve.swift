import FoundationEssentials
import Protocomm
import Provisioning
import StringEssentials
import Synchronization

/// What the ESP protocomm options resolve to: the QR payload read from its file, the session's security
/// with secrets from their sources, and the source of a second password.
extension ProtocommBLEOptions {
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
            text = decoded.trimmingWhitespace()
        case .failure(let problem):
            throw ProvisioningError(
                .invalidOption,
                "The file given to --qr-file \(problem.reason(limit: "\(ESPProvisioningQRPayload.maximumLength) bytes")).",
                hint: "Give a readable regular file of at most \(ESPProvisioningQRPayload.maximumLength) bytes.")
        }
        let payload = try ESPProvisioningQRPayload(text)
        if payload.transport == "softap" {
            throw ProvisioningError(
                .invalidOption, "The QR payload is for a SoftAP device.",
                hint: "Provision it with `ztprov softap --ap-ssid \(payload.name)`.")
        }
        if payload.network == "thread", threadDatasetFile == nil {
            throw ProvisioningError(
                .invalidOption, "The QR payload is for a Thread device.",
                hint: "Give the Thread network's active dataset with --thread-dataset-file (hex, as "
                    + "`ot-ctl dataset active -x` prints it) instead of --ssid and a Wi-Fi password.")
        }
        return payload
    }

    /// Text files of more than this many bytes are not a dataset's hex, whatever the blanks around it.
    static let threadDatasetFileLimit = 4096

    /// The Thread dataset, when `--thread-dataset-file` names one. The file is a secret's: messages
    /// name what is wrong and where, never its content.
    func threadDataset() throws(ProvisioningError) -> ThreadDataset? {
        guard let threadDatasetFile else { return nil }
        switch RegularFile.contents(of: threadDatasetFile, limit: Self.threadDatasetFileLimit) {
        case .success(let bytes):
            do {
                return try ThreadDataset(hexText: bytes)
            } catch {
                throw .threadInvalidDataset(error)
            }
        case .failure(.tooLarge):
            throw ProvisioningError(
                .threadInvalidDataset,
                "The file given to --thread-dataset-file is larger than \(Self.threadDatasetFileLimit) bytes: "
                    + "not a Thread dataset.",
                hint: "Put only the hex line of `ot-ctl dataset active -x` in the file.")
        case .failure(let problem):
            throw ProvisioningError(
                .secretUnreadable, "The file given to --thread-dataset-file \(problem).",
                hint: "Give a readable regular file holding the dataset's hex.")
        }
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

    /// Asks for another password after a wrong one: the file or variable given, read and checked now,
    /// before any radio, else the terminal when it comes to it (on a thread of its own: the person may take a while). A source read once is not read again,
    /// so a second wrong password ends the run.
    func retryPassphraseSource(
        environment: [String: String]
    ) throws(ProvisioningError) -> @Sendable () async throws -> Secret? {
        let options = retryPassword
        let given = options.isGiven ? try options.resolve(environment: environment) : nil
        let used = RetrySourceUse()
        return {
            guard used.take() else { return nil }
            if let given { return given }
            return try await OwnThread.run { () throws(ProvisioningError) in
                try options.resolve(environment: environment)
            }
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
