#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What a device says about itself on `proto-ver` (`wifi_prov_get_info_json` in ESP-IDF's provisioning
/// manager), and the security choice that follows from it.
///
/// The manager answers with JSON such as
/// `{"prov":{"ver":"v1.1","sec_ver":1,"sec_patch_ver":0,"cap":["wifi_scan"]}}`; firmware older than
/// the manager answers with a bare version string, which is kept in ``version`` with no other field.
public struct ProtocommVersionInfo: Sendable, Equatable {
    /// `prov.ver`: `v1.1` (wifi_provisioning), `netprov-v1.2` (network_provisioning), or the legacy string.
    public var version: String
    /// `prov.sec_ver`, sent by ESP-IDF 5.0 and later.
    public var securityVersion: Int?
    /// `prov.sec_patch_ver`, sent by firmware that knows the security 2 nonce fix.
    public var securityPatchVersion: Int?
    /// `prov.cap`, in the device's order.
    public var capabilities: [ProtocommCapability]
    /// Other top-level keys: application labels added with `wifi_prov_mgr_set_app_info`.
    public var applications: [String: ProtocommApplicationInfo]
    /// True when the reply was a bare version string rather than JSON.
    public var isLegacyVersionString: Bool

    /// Builds the info field by field (the device side and tests do).
    public init(
        version: String,
        securityVersion: Int? = nil,
        securityPatchVersion: Int? = nil,
        capabilities: [ProtocommCapability] = [],
        applications: [String: ProtocommApplicationInfo] = [:],
        isLegacyVersionString: Bool = false
    ) {
        self.version = version
        self.securityVersion = securityVersion
        self.securityPatchVersion = securityPatchVersion
        self.capabilities = capabilities
        self.applications = applications
        self.isLegacyVersionString = isLegacyVersionString
    }

    /// Whether `cap` lists `capability`.
    public func has(_ capability: ProtocommCapability) -> Bool {
        capabilities.contains(capability)
    }
}

/// An application's entry in `proto-ver`: `{"ver": "...", "cap": [...]}`.
public struct ProtocommApplicationInfo: Sendable, Equatable {
    /// The application's `ver`.
    public var version: String?
    /// The application's `cap` strings.
    public var capabilities: [String]

    /// An entry with these fields.
    public init(version: String? = nil, capabilities: [String] = []) {
        self.version = version
        self.capabilities = capabilities
    }
}

extension ProtocommVersionInfo {
    /// Longest bare version string accepted from legacy firmware; anything longer is not a version.
    static let legacyVersionMaximumLength = 64

    /// Parses the body of a `proto-ver` reply.
    public init(responseBody: [UInt8]) throws(ProtocommError) {
        guard let text = String(validating: responseBody, as: UTF8.self) else { throw .invalidVersionInfo }
        let trimmed = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") {
            self = try Self(json: Data(responseBody))
        } else if Self.isPlausibleLegacyVersion(trimmed) {
            self.init(version: trimmed, isLegacyVersionString: true)
        } else {
            throw .invalidVersionInfo
        }
    }

    private init(json: Data) throws(ProtocommError) {
        guard let entries = try? JSONDecoder().decode([String: VersionEntry].self, from: json),
            let prov = entries["prov"], let version = prov.version
        else { throw .invalidVersionInfo }
        self.init(
            version: version,
            securityVersion: prov.securityVersion,
            securityPatchVersion: prov.securityPatchVersion,
            capabilities: prov.capabilities.map(ProtocommCapability.init(rawValue:)),
            applications: entries.filter { $0.key != "prov" }.mapValues {
                ProtocommApplicationInfo(version: $0.version, capabilities: $0.capabilities)
            }
        )
    }

    private static func isPlausibleLegacyVersion(_ text: String) -> Bool {
        !text.isEmpty && text.count <= legacyVersionMaximumLength
            && text.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control }
    }
}

/// One top-level object of the `proto-ver` JSON, decoded leniently: a field of the wrong type or
/// an entry that is not an object reads as absent instead of failing the whole reply.
private struct VersionEntry: Decodable {
    var version: String?
    var securityVersion: Int?
    var securityPatchVersion: Int?
    var capabilities: [String] = []

    private enum CodingKeys: String, CodingKey {
        case version = "ver"
        case securityVersion = "sec_ver"
        case securityPatchVersion = "sec_patch_ver"
        case capabilities = "cap"
    }

    init(from decoder: any Decoder) {
        guard let container = try? decoder.container(keyedBy: CodingKeys.self) else { return }
        version = try? container.decode(String.self, forKey: .version)
        securityVersion = try? container.decode(Int.self, forKey: .securityVersion)
        securityPatchVersion = try? container.decode(Int.self, forKey: .securityPatchVersion)
        capabilities = (try? container.decode([String].self, forKey: .capabilities)) ?? []
    }
}
