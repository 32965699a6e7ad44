import BluFi
import CryptoPrimitives

/// A client together with the device-side encoder that speaks to it, copied fresh for every input.
///
/// The ready sessions are negotiated once per process with fixed private keys: the harness plays
/// the device and derives the same keys as the client, so its encoder can encrypt what the client
/// must decrypt.
struct BluFiFuzzSession {
    var client: BluFiClient
    var device = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: nil)

    /// The seed of the client's (and thus the replayed) private exponent.
    private static let clientSeed: [UInt8] = [0xB1, 0xF1]
    private static let devicePrivateKey: [UInt8] = [0x3C, 0x99, 0x5E]

    /// Awaiting the version with automatic security, then ready with none, V1 and V2.
    static let starts: [BluFiFuzzSession] =
        [BluFiFuzzSession(security: .automatic)] + [.none, .v1, .v2].map(ready)

    private init(security: BluFiSecurityChoice) {
        client = BluFiClient(security: security, random: SeededRandomSource(seed: Self.clientSeed))
        _ = client.connected(mtu: nil)
    }

    private static func ready(_ scheme: BluFiSecurityScheme) -> BluFiFuzzSession {
        var session = BluFiFuzzSession(security: .fixed(scheme))
        session.deliver((BluFiMessage(.version, [1, 3]), []))
        if let group = scheme.group {
            var random = SeededRandomSource(seed: clientSeed)
            let clientPair = DHKeyPair.generate(in: group, using: &random)
            guard let devicePair = try? DHKeyPair(group: group, privateKey: devicePrivateKey),
                let secret = try? devicePair.sharedSecret(peerPublicKey: clientPair.publicKey)
            else { preconditionFailure("fixed BluFi keys must agree") }
            session.deliver((BluFiMessage(.negotiation, devicePair.publicKey), []))
            let keys: BluFiSessionKeys = scheme == .v1 ? .v1(sharedSecret: secret) : .v2(sharedSecret: secret)
            session.device.install(keys.cipher(for: .deviceToPhone))
        }
        precondition(session.client.isReady, "the fixed \(scheme) negotiation must leave the client ready")
        return session
    }

    /// Hands one notification to the client.
    mutating func deliver(_ notification: [UInt8]) {
        _ = client.receivedNotification(notification)
    }

    /// Encodes a message as the device would and delivers its frames.
    mutating func deliver(_ message: (BluFiMessage, BluFiFrameControl)) {
        guard let frames = try? device.encode(message.0, control: message.1) else { return }
        for frame in frames { deliver(frame) }
    }

    /// Delivers a message's frames with one byte of the first frame flipped.
    mutating func deliverFlipped(_ message: (BluFiMessage, BluFiFrameControl), at position: Int, mask: UInt8) {
        guard var frames = try? device.encode(message.0, control: message.1), !frames.isEmpty else { return }
        frames[0][position % frames[0].count] ^= mask
        for frame in frames { deliver(frame) }
    }

    /// Starts one of the client's requests; a refused request is fine, it is the client's to refuse.
    mutating func request(_ choice: Int) {
        let station = BluFiStationConfiguration(ssid: "fuzz", password: "password1")
        let softAP = BluFiSoftAPConfiguration(ssid: Array("ap".utf8), password: [], channel: 6)
        _ = try? {
            (client: inout BluFiClient) throws(BluFiError) -> [BluFiClient.Action] in
            switch choice % 8 {
            case 0: try client.requestedWiFiStatus()
            case 1: try client.requestedWiFiList()
            case 2: try client.requestedProvisioning(BluFiProvisioningRequest(.station(station), deviceID: .required))
            case 3: try client.requestedProvisioning(BluFiProvisioningRequest(.softAP(softAP), customData: [1, 2]))
            case 4: try client.requestedProvisioning(BluFiProvisioningRequest(.stationAndSoftAP(station, softAP)))
            case 5: try client.requestedCustomData([0xC0, 0xFF, 0xEE])
            case 6: try client.requestedStationDeauthentication([[1, 2, 3, 4, 5, 6]])
            default: try client.requestedDisconnect()
            }
        }(&client)
    }

    /// The link drops and returns: the client restarts at GET_VERSION, the device at sequence 0.
    mutating func reconnect(mtu: Int) {
        _ = client.disconnected()
        _ = client.connected(mtu: mtu == 0 ? nil : mtu)
        device = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: nil)
    }
}
