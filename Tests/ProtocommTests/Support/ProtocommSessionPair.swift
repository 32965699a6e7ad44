import CryptoPrimitives
import Protocomm

/// A client and an emulated device joined by an in-memory link, in the spirit of h11's
/// `ConnectionPair`: every request the client makes goes through `ProtocommDevice` exactly as the
/// HTTP side would carry it.
struct ProtocommSessionPair {
    var device: ProtocommDevice
    var clientRandom: SeededRandomSource
    var cipher: ProtocommCipher?

    /// The device failed the exchange the way the real one does: no HTTP reply.
    struct DeviceClosed: Error, Equatable {
        let response: ProtocommDeviceResponse
    }

    init(device configuration: ProtocommDeviceConfiguration, seed: String = "pair") {
        device = ProtocommDevice(
            configuration: configuration, random: SeededRandomSource(seed: Array(("device-" + seed).utf8)))
        clientRandom = SeededRandomSource(seed: Array(("client-" + seed).utf8))
    }

    /// Posts `body` to `endpoint` and returns the reply body, or throws ``DeviceClosed``.
    mutating func post(_ body: [UInt8], to endpoint: ProtocommEndpoint) throws -> [UInt8] {
        let response = device.receivedRequest(body, on: endpoint)
        guard case .reply(let reply) = response else { throw DeviceClosed(response: response) }
        return reply
    }

    /// Reads `proto-ver` the way a client does.
    mutating func versionInfo() throws -> ProtocommVersionInfo {
        try ProtocommVersionInfo(responseBody: post(Array("ESP".utf8), to: .protocolVersion))
    }

    /// Runs the handshake loop the SoftAP flow runs and keeps the resulting cipher.
    mutating func establish(_ security: ProtocommSecurity) throws {
        var session = try ProtocommSession(security: security, random: &clientRandom)
        var step = ProtocommSessionStep.send(session.start())
        while case .send(let request) = step {
            step = try session.receive(post(request, to: .session))
        }
        guard case .established(let established) = step else { preconditionFailure("loop ends only when established") }
        cipher = established
    }

    /// Encrypts, posts and decrypts one payload on an encrypted endpoint.
    mutating func exchange(_ plaintext: [UInt8], on endpoint: ProtocommEndpoint) throws -> [UInt8] {
        guard var active = cipher else { preconditionFailure("establish the session first") }
        defer { cipher = active }
        let reply = try post(active.encrypt(plaintext), to: endpoint)
        return try active.decrypt(reply)
    }

    mutating func config(_ request: ProtocommWiFiConfigRequest) throws -> ProtocommWiFiConfigResponse {
        try request.response(from: exchange(request.serializedBytes(), on: .config))
    }

    mutating func scan(_ request: ProtocommWiFiScanRequest) throws -> ProtocommWiFiScanResponse {
        try request.response(from: exchange(request.serializedBytes(), on: .scan))
    }

    mutating func control(_ request: ProtocommWiFiControlRequest) throws -> ProtocommWiFiControlResponse {
        try request.response(from: exchange(request.serializedBytes(), on: .control))
    }
}
