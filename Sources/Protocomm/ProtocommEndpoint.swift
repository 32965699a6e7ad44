/// The HTTP path (SoftAP) or endpoint name (BLE) a protocomm payload is posted to.
///
/// Every endpoint is `POST /<name>`; only `proto-ver` and `prov-session` travel in the clear, all
/// others go through the session's ``ProtocommCipher``.
public enum ProtocommEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// `proto-ver`: JSON describing the manager version, security scheme and capabilities.
    case protocolVersion
    /// `prov-session`: the security handshake.
    case session
    /// `prov-config`: Wi-Fi get status, set config, apply config.
    case config
    /// `prov-scan`: Wi-Fi scan start, status, paged results.
    case scan
    /// `prov-ctrl`: Wi-Fi reset and reprovision (ESP-IDF 5.1 and later).
    case control
    /// An application endpoint such as `custom-data`, encrypted like the Wi-Fi ones.
    case custom(String)

    /// Maps an endpoint name back to its case; unknown names become ``custom(_:)``.
    public init(name: String) {
        switch name {
        case "proto-ver": self = .protocolVersion
        case "prov-session": self = .session
        case "prov-config": self = .config
        case "prov-scan": self = .scan
        case "prov-ctrl": self = .control
        default: self = .custom(name)
        }
    }

    /// The endpoint name as the device registers it, e.g. `prov-session`.
    public var name: String {
        switch self {
        case .protocolVersion: "proto-ver"
        case .session: "prov-session"
        case .config: "prov-config"
        case .scan: "prov-scan"
        case .control: "prov-ctrl"
        case .custom(let name): name
        }
    }

    /// The HTTP request path: `/` followed by the name.
    public var path: String { "/" + name }

    /// Whether payloads on this endpoint pass through the session cipher.
    public var isEncrypted: Bool {
        switch self {
        case .protocolVersion, .session: false
        case .config, .scan, .control, .custom: true
        }
    }

    /// The endpoint name.
    public var description: String { name }
}
