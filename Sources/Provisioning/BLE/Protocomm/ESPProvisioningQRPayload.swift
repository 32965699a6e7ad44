import FoundationEssentials
public import Protocomm

/// Espressif's provisioning QR payload, as the phone apps read it:
/// `{"ver":"v1","name":"PROV_1A2B3C","pop":"abcd1234","transport":"ble","security":2,"username":"wifiprov","network":"wifi"}`.
///
/// `pop` is the security 1 proof of possession or the security 2 SRP password, so it stays a ``Secret``.
/// Fields ztprov does not use (`ver`, `password`) are ignored; wrong types are errors, never guesses.
public struct ESPProvisioningQRPayload: Sendable, Equatable {
    /// The longest payload accepted; real ones are under 200 bytes.
    public static let maximumLength = 1024

    /// The advertised name (BLE) or hotspot SSID (SoftAP).
    public var name: String
    /// `ble` or `softap`, lower-cased; nil when the payload does not say.
    public var transport: String?
    /// The proof of possession or SRP password.
    public var proofOfPossession: Secret?
    /// The security level; the apps take 2 when absent, ztprov lets `proto-ver` decide.
    public var security: ProtocommSecurityLevel?
    /// The security 2 SRP username.
    public var username: String?
    /// `wifi` or `thread`, lower-cased; nil when absent (Wi-Fi).
    public var network: String?

    /// Parses `text`; throws `usage.invalid-option` naming what is wrong, never the PoP.
    public init(_ text: String) throws(ProvisioningError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw Self.invalid("it is longer than \(Self.maximumLength) bytes")
        }
        let raw: Fields
        do {
            raw = try JSONDecoder().decode(Fields.self, from: Data(text.utf8))
        } catch {
            throw Self.invalid("it is not a JSON object whose fields are strings (\"security\" a number)")
        }
        // JSON can spell a NUL as `\u0000`; no name, PoP or username holds one.
        let texts = [raw.name, raw.transport, raw.pop, raw.username, raw.network]
        guard !texts.contains(where: { $0?.unicodeScalars.contains("\0") == true }) else {
            throw Self.invalid("a field holds a NUL character")
        }
        guard let name = raw.name, (1...32).contains(name.utf8.count) else {
            throw Self.invalid("\"name\" must be a string of 1 to 32 bytes")
        }
        self.name = name
        transport = raw.transport?.lowercased()
        if let transport, transport != "ble", transport != "softap" {
            throw Self.invalid("\"transport\" must be \"ble\" or \"softap\"")
        }
        network = raw.network?.lowercased()
        if let network, network != "wifi", network != "thread" {
            throw Self.invalid("\"network\" must be \"wifi\" or \"thread\"")
        }
        proofOfPossession = raw.pop.flatMap { $0.isEmpty ? nil : Secret($0) }
        username = raw.username.flatMap { $0.isEmpty ? nil : $0 }
        if let number = raw.security {
            guard let level = ProtocommSecurityLevel(rawValue: number) else {
                throw Self.invalid("\"security\" must be 0, 1 or 2")
            }
            security = level
        }
        for value in [raw.pop, raw.username, raw.transport, raw.network] {
            guard (value?.utf8.count ?? 0) <= 256 else { throw Self.invalid("a field is longer than 256 bytes") }
        }
    }

    /// The fields as the JSON holds them; `security` may be a number or a digit string.
    private struct Fields: Decodable {
        var name: String?
        var transport: String?
        var pop: String?
        var security: Int?
        var username: String?
        var network: String?

        enum CodingKeys: String, CodingKey {
            case name, transport, pop, security, username, network
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            name = try container.decodeIfPresent(String.self, forKey: .name)
            transport = try container.decodeIfPresent(String.self, forKey: .transport)
            pop = try container.decodeIfPresent(String.self, forKey: .pop)
            username = try container.decodeIfPresent(String.self, forKey: .username)
            network = try container.decodeIfPresent(String.self, forKey: .network)
            if let text = try? container.decodeIfPresent(String.self, forKey: .security) {
                guard let number = Int(text) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: .security, in: container, debugDescription: "not a number")
                }
                security = number
            } else {
                security = try container.decodeIfPresent(Int.self, forKey: .security)
            }
        }
    }

    private static func invalid(_ reason: String) -> ProvisioningError {
        ProvisioningError(
            .invalidOption, "The ESP provisioning QR payload is unusable: \(reason).",
            hint: "Put the QR code's text, as printed by the firmware, in the file given to --qr-file.")
    }
}
