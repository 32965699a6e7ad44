public import CryptoPrimitives

/// An emulated ESP provisioning device, endpoint by endpoint, as `protocomm_req_handle` and the
/// Wi-Fi provisioning manager behave: the piece `DeviceEmulator` serves over HTTP.
///
/// The device keeps one security session for the whole server. `proto-ver` and `prov-session`
/// are plaintext; every other endpoint is decrypted with the session cipher, handled, and the
/// reply encrypted. Any failure ends in ``ProtocommDeviceResponse/closeConnection(_:)``, never in
/// an error reply, which is what real clients see. Cookie and socket bookkeeping stays with the
/// HTTP side: it calls ``startedNewSession()`` whenever `protocomm_httpd.c` would open a new session.
public struct ProtocommDevice: Sendable {
    /// The largest body the device's HTTP handler reads (`MAX_REQ_BODY_LEN`).
    public static let maximumBodyLength = 4096
    /// What the official example's `custom-data` handler answers.
    public static let customEndpointReply = Array("SUCCESS".utf8) + [0]

    /// What this device is: security, advertised version, endpoints, Wi-Fi plan.
    public let configuration: ProtocommDeviceConfiguration
    /// The Wi-Fi state machine, readable for tests and fault plans.
    public private(set) var wifi: ProtocommDeviceWiFi
    private var random: any RandomSource
    private var session: ProtocommDeviceSession
    private var cipher: ProtocommCipher?

    /// A device whose session secrets come from `random`.
    public init(configuration: ProtocommDeviceConfiguration, random: some RandomSource) {
        self.configuration = configuration
        self.random = random
        wifi = ProtocommDeviceWiFi(plan: configuration.wifi)
        session = ProtocommDeviceSession(security: configuration.security)
        cipher = Self.initialCipher(for: configuration.security)
    }

    /// True once the device has reported `Connected` with auto-stop on: the real device stops its
    /// HTTP server and SoftAP about a second later.
    public var hasFinishedProvisioning: Bool { wifi.hasFinishedProvisioning }

    /// The HTTP side saw a request that starts a new session (no matching cookie, new socket): the
    /// old security session is dropped.
    public mutating func startedNewSession() {
        session = ProtocommDeviceSession(security: configuration.security)
        cipher = Self.initialCipher(for: configuration.security)
    }

    /// Handles one POST body on `endpoint`.
    public mutating func receivedRequest(_ body: [UInt8], on endpoint: ProtocommEndpoint) -> ProtocommDeviceResponse {
        guard (1...Self.maximumBodyLength).contains(body.count) else {
            return .closeConnection(.invalidBodyLength(body.count))
        }
        do {
            switch endpoint {
            case .protocolVersion:
                return .reply(configuration.versionInfo.responseBody())
            case .session:
                return .reply(try receivedHandshake(body))
            case .control where !configuration.hasControlEndpoint:
                return .notFound
            case .custom(let name) where !configuration.customEndpoints.contains(name):
                return .notFound
            case .config, .scan, .control, .custom:
                return .reply(try receivedEncrypted(body, on: endpoint))
            }
        } catch {
            return .closeConnection(error)
        }
    }

    private mutating func receivedHandshake(_ body: [UInt8]) throws(ProtocommError) -> [UInt8] {
        do {
            switch try session.receivedRequest(body, using: &random) {
            case .reply(let reply):
                // A handshake in progress replaces any earlier session, as the device's Cmd0 restart does.
                if configuration.security.level != .security0 { cipher = nil }
                return reply
            case .established(let reply, let established):
                cipher = established
                return reply
            }
        } catch {
            if configuration.security.level != .security0 { cipher = nil }
            throw error
        }
    }

    private mutating func receivedEncrypted(
        _ body: [UInt8], on endpoint: ProtocommEndpoint
    ) throws(ProtocommError) -> [UInt8] {
        guard var active = cipher else { throw .sessionNotEstablished }
        defer { cipher = active }
        let request = try active.decrypt(body)
        let reply: [UInt8]
        switch endpoint {
        case .config: reply = try wifi.receivedConfigRequest(request)
        case .scan: reply = try wifi.receivedScanRequest(request)
        case .control: reply = try wifi.receivedControlRequest(request)
        case .protocolVersion, .session, .custom: reply = Self.customEndpointReply
        }
        return try active.encrypt(reply)
    }

    /// Security 0 keeps no session state, so its endpoints work without a handshake.
    private static func initialCipher(for security: ProtocommDeviceSecurity) -> ProtocommCipher? {
        security.level == .security0 ? .plaintext : nil
    }
}
