import BluFi
import CryptoPrimitives
import TestSupport
import Testing

/// Arbitrary input never crashes the decoder or either session.
///
/// The input is a seeded mix of garbage and well-formed frames of every type, so the deep paths
/// (reassembly, negotiation, dispatch) are reached too. Each test also checks that it did reach them,
/// so it cannot pass by rejecting everything early.
@Suite struct BluFiRandomizedTests {
    @Test(arguments: [1, 2] as [UInt64])
    func decoderSurvivesArbitraryNotifications(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var decoder = BluFiFrameDecoder()
        var messages = 0
        var reassemblyStayedWithinDeclaredLength = true
        for round in 0..<4000 {
            if round == 2000 {
                decoder.install(BluFiSessionKeys.v1(sharedSecret: secret(&random)).cipher(for: .deviceToPhone))
            }
            let bytes =
                random.chance(30)
                ? random.bytes(random.below(40)) : plausibleFrame(&random, sequence: decoder.expectedSequence)
            guard let frame = try? decoder.decodeFrame(bytes) else { continue }
            if (try? decoder.reassemble(frame)).flatMap({ $0 }) != nil { messages += 1 }
            if case .reassembling(let declared, let content) = decoder.state, content.count > declared {
                reassemblyStayedWithinDeclaredLength = false
            }
        }
        #expect(reassemblyStayedWithinDeclaredLength)
        #expect(messages > 500)
    }

    /// One run negotiates (mostly V1: each V2 negotiation costs two 3072-bit exponentiations), one stays
    /// plain and so spends its rounds deeper in the session.
    @Test(arguments: [(11, BluFiSecurityChoice.automatic), (12, .fixed(.none))] as [(UInt64, BluFiSecurityChoice)])
    func clientSurvivesArbitraryNotifications(seed: UInt64, security: BluFiSecurityChoice) {
        var random = SplitMix64(seed: seed)
        var client = BluFiClient(security: security, random: SeededRandomSource(seed: [UInt8(seed)]))
        var device = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: 23)
        var reports = 0
        var failures = 0
        var actions = client.connected(mtu: 23)
        for _ in 0..<2500 {
            if actions.contains(where: { if case .fail = $0 { true } else { false } }) || random.chance(1) {
                failures += 1
                device = BluFiFrameEncoder(direction: .deviceToPhone, attMTU: 23)
                actions = client.connected(mtu: 23)
                continue
            }
            reports += actions.filter { if case .report = $0 { true } else { false } }.count
            actions = nextClientStep(&client, device: &device, random: &random)
        }
        #expect(reports > 300)
        #expect(failures > 50)
    }

    @Test(arguments: [BluFiSecurityScheme.v1, .v2, .none])
    func deviceSurvivesArbitraryWrites(security: BluFiSecurityScheme) {
        var random = SplitMix64(seed: 21)
        let configuration = BluFiDeviceConfiguration(
            security: security, deviceID: "zt-fuzz", accessPoints: [BluFiAccessPoint(ssid: [0x41], rssi: -50)])
        var device = BluFiDeviceSession(configuration: configuration, random: SeededRandomSource(seed: [21]))
        device.connected(mtu: 185)
        var phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 185)
        var notifications = 0
        for _ in 0..<3000 {
            switch random.below(100) {
            case 0..<2:
                device.connected(mtu: [nil, 23, 185, 517][random.below(4)])
                phone = BluFiFrameEncoder(direction: .phoneToDevice, attMTU: 185)
            case 2..<4:
                notifications += device.wifiJoinCompleted().count
            case 4..<20:
                notifications += device.receivedWrite(random.bytes(random.below(30))).count
            default:
                let message = randomPhoneMessage(&random)
                let control = randomControl(&random)
                for frame in (try? phone.encode(message, control: control)) ?? [] {
                    notifications += device.receivedWrite(frame).count
                }
            }
        }
        #expect(notifications > 500)
    }

    // MARK: Generators

    /// Mostly-valid frames: right or wrong sequence, random flags, sometimes a correct checksum.
    private func plausibleFrame(_ random: inout SplitMix64, sequence: UInt8) -> [UInt8] {
        let data = random.bytes(random.below(24))
        var control = BluFiFrameControl(rawValue: random.byte() & 0x1F)
        if random.chance(50) { control.remove(.encrypted) }
        let frame = BluFiFrame(
            type: BluFiFrameType(rawValue: random.byte()), control: control,
            sequence: random.chance(80) ? sequence : random.byte(), data: data)
        var bytes = [frame.type.rawValue, control.rawValue, frame.sequence, UInt8(data.count)] + data
        if control.contains(.checksum) {
            let checksum = random.chance(80) ? frame.checksum : UInt16(truncatingIfNeeded: random.next())
            bytes += [UInt8(truncatingIfNeeded: checksum), UInt8(checksum >> 8)]
        }
        return bytes
    }

    /// One step of a hostile device: a request by the flow, a deadline, garbage, or a device message
    /// that is often the one the client waits for (with random content).
    private func nextClientStep(
        _ client: inout BluFiClient, device: inout BluFiFrameEncoder, random: inout SplitMix64
    ) -> [BluFiClient.Action] {
        switch random.below(100) {
        case 0..<5:
            return client.deadlinePassed()
        case 5..<12:
            let station = BluFiStationConfiguration(ssid: random.bytes(1 + random.below(32)), password: random.bytes(8))
            return (try? request(random.below(4), station: station, client: &client)) ?? []
        case 12..<20:
            return client.receivedNotification(random.bytes(random.below(30)))
        default:
            let message = awaitedOrRandomDeviceMessage(client.awaitedReply, random: &random)
            let control: BluFiFrameControl = random.chance(20) ? [.checksum, .acknowledgementRequired] : []
            var actions: [BluFiClient.Action] = []
            for frame in (try? device.encode(message, control: control)) ?? [] {
                actions += client.receivedNotification(frame)
            }
            return actions
        }
    }

    private func request(
        _ choice: Int, station: BluFiStationConfiguration, client: inout BluFiClient
    ) throws(BluFiError) -> [BluFiClient.Action] {
        switch choice {
        case 0: try client.requestedProvisioning(.init(.station(station), deviceID: .required))
        case 1: try client.requestedWiFiStatus()
        case 2: try client.requestedWiFiList()
        default: try client.requestedCustomData([1, 2, 3])
        }
    }

    private func awaitedOrRandomDeviceMessage(_ awaited: BluFiAwaitedReply?, random: inout SplitMix64) -> BluFiMessage {
        guard random.chance(60), let awaited else {
            return BluFiMessage(BluFiFrameType(rawValue: random.byte()), random.bytes(random.below(40)))
        }
        switch awaited {
        case .version: return BluFiMessage(.version, [1, random.chance(90) ? UInt8(random.below(4)) : 4])
        case .devicePublicKey: return BluFiMessage(.negotiation, random.bytes(random.chance(50) ? 128 : 384))
        case .acknowledgement: return BluFiMessage(.ack, [UInt8(random.below(4))])
        case .wifiList:
            return BluFiMessage(.wifiList, BluFiAccessPoint.payload(of: [.init(ssid: random.bytes(5), rssi: -40)]))
        case .deviceID, .optionalDeviceID: return BluFiMessage(.customData, random.bytes(random.below(12)))
        case .wifiConnection, .softAPStatus, .wifiStatus:
            return BluFiMessage(
                .wifiReport, [UInt8(random.below(4)), UInt8(random.below(5)), 0] + random.bytes(random.below(12)))
        }
    }

    private func randomPhoneMessage(_ random: inout SplitMix64) -> BluFiMessage {
        let defined: [BluFiFrameType] = [
            .ack, .setSecurityMode, .setOperationMode, .connectAP, .disconnectAP, .getWiFiStatus,
            .deauthenticateStations, .getVersion, .disconnectBLE, .getWiFiList, .negotiation, .staBSSID, .staSSID,
            .staPassword, .softAPSSID, .softAPPassword, .softAPMaxConnections, .softAPAuthMode, .softAPChannel,
            .customData, .caCertificate,
        ]
        let type = random.chance(90) ? defined[random.below(defined.count)] : BluFiFrameType(rawValue: random.byte())
        guard type == .negotiation else { return BluFiMessage(type, random.bytes(random.below(70))) }
        return BluFiMessage(.negotiation, randomNegotiation(&random))
    }

    /// NEG messages whose fields parse: small random primes, generators and keys, or a length announcement.
    private func randomNegotiation(_ random: inout SplitMix64) -> [UInt8] {
        if random.chance(40) { return [0, 0, UInt8(random.below(40))] }
        if random.chance(20) { return random.bytes(random.below(8)) }
        let fields = [
            random.bytes(1 + random.below(16)), random.bytes(random.below(3)), random.bytes(random.below(18)),
        ]
        return [1] + fields.flatMap { [0, UInt8($0.count)] + $0 }
    }

    private func randomControl(_ random: inout SplitMix64) -> BluFiFrameControl {
        var control: BluFiFrameControl = []
        if random.chance(30) { control.insert(.checksum) }
        if random.chance(10) { control.insert(.acknowledgementRequired) }
        return control
    }

    private func secret(_ random: inout SplitMix64) -> DHSharedSecret {
        var source = SeededRandomSource(seed: random.bytes(8))
        let group = BluFiSecurityScheme.v1.group!
        let phone = DHKeyPair.generate(in: group, privateKeyByteCount: 32, using: &source)
        let device = DHKeyPair.generate(in: group, privateKeyByteCount: 32, using: &source)
        return (try? phone.sharedSecret(peerPublicKey: device.publicKey))!
    }
}
