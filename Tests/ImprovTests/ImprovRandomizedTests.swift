import DeviceEmulator
import Improv
import TestSupport
import Testing

/// Arbitrary bytes never crash a decoder, the client or the device, and each test checks that it
/// reached the deep paths, so it cannot pass by rejecting everything early.
@Suite struct ImprovRandomizedTests {
    @Test(arguments: [1, 2] as [UInt64])
    func decodersSurviveArbitraryBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var parsed = 0
        for _ in 0..<5000 {
            let bytes = random.chance(50) ? random.bytes(random.below(40)) : plausibleResult(&random)
            _ = try? ImprovServiceData.decode(bytes)
            _ = try? ImprovState.decode(bytes)
            _ = try? ImprovErrorState.decode(bytes)
            guard let frame = try? ImprovRPCFrame.decode(bytes) else { continue }
            for command in ImprovCommand.allCases where (try? ImprovResult.parse(frame, as: command)) != nil {
                parsed += 1
            }
        }
        #expect(parsed > 1000)
    }

    @Test(arguments: [3, 4] as [UInt64])
    func clientSurvivesArbitraryNotifications(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let credentials = try ImprovCredentials(ssid: Array("net".utf8), password: Array("password".utf8))
        var finished = 0
        var failed = 0
        for _ in 0..<400 {
            var client = ImprovClient(requests: [.scanWiFiNetworks, .hostname(nil), .sendWiFiSettings(credentials)])
            var actions = client.connected()
            actions += client.readCompleted(.capabilities, value: [random.chance(50) ? 0x0F : random.byte()])
            actions += client.readCompleted(.currentState, value: [random.chance(50) ? 2 : UInt8(random.below(6))])
            for _ in 0..<30 where !client.isOver {
                var characteristic = ImprovCharacteristic.allCases[random.below(5)]
                let value: [UInt8]
                switch random.below(8) {
                case 0: value = random.bytes(random.below(6))
                case 1: value = [UInt8(random.below(6))]
                case 2: value = plausibleResult(&random)
                default:
                    characteristic = .rpcResult
                    value = fittingResult(for: client.awaitedReply, &random)
                }
                actions += random.chance(5) ? client.deadlinePassed() : client.notified(characteristic, value: value)
            }
            finished += actions.contains(.finished) ? 1 : 0
            failed += actions.contains { if case .fail = $0 { true } else { false } } ? 1 : 0
            #expect(actions.filter { $0 == .finished }.count <= 1)
        }
        #expect(finished > 5)
        #expect(failed > 100)
    }

    @Test(arguments: [5, 6] as [UInt64])
    func deviceSurvivesArbitraryWrites(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let home = try ImprovCredentials(ssid: Array("net".utf8), password: Array("password".utf8))
        var device = EmulatedImprovDevice(configuration: .init(requiresAuthorization: true, joinableNetwork: home))
        var results = 0
        for _ in 0..<5000 {
            if device.state == .provisioned || random.chance(2) {
                device = EmulatedImprovDevice(configuration: .init(requiresAuthorization: true, joinableNetwork: home))
            }
            if random.chance(10) { _ = device.authorize() }
            let bytes = random.chance(40) ? random.bytes(random.below(25)) : plausibleCommand(&random)
            for chunk in ImprovRPCFrame.chunks(of: bytes) {
                results += device.written(chunk).filter { $0.characteristic == .rpcResult }.count
            }
        }
        #expect(results > 150)
    }

    /// A well-formed result frame of a random command with random strings (sometimes a valid scan
    /// entry), so the parsers get past the frame checks.
    private func plausibleResult(_ random: inout SplitMix64) -> [UInt8] {
        let strings: [[UInt8]] = (0..<random.below(7)).map { index in
            if index % 3 == 1, random.chance(50) { return Array(String(-random.below(100)).utf8) }
            return random.chance(70) ? Array("ab-\(random.below(99))".utf8) : random.bytes(random.below(5))
        }
        let data = (try? ImprovStringList.encode(strings)) ?? []
        let frame = (try? ImprovRPCFrame(command: UInt8(random.below(8)), data: data))?.encoded ?? []
        return random.chance(10) && !frame.isEmpty ? frame.dropLast() + [random.byte()] : frame
    }

    /// A well-formed answer to what the client awaits, so some conversations get to the end.
    private func fittingResult(for awaited: ImprovAwaitedReply?, _ random: inout SplitMix64) -> [UInt8] {
        let (command, strings): (ImprovCommand, [String]) =
            switch awaited {
            case .result(.scanWiFiNetworks), .moreNetworks:
                (.scanWiFiNetworks, random.chance(50) ? [] : ["net", "-\(random.below(90))", "WPA2"])
            case .result(.hostname): (.hostname, ["host"])
            case .result(let other): (other, ["http://x/"])
            case .authorization, nil: (.sendWiFiSettings, [])
            }
        let data = (try? ImprovStringList.encode(strings.map { Array($0.utf8) })) ?? []
        return (try? ImprovRPCFrame(command: command.rawValue, data: data))?.encoded ?? []
    }

    private func plausibleCommand(_ random: inout SplitMix64) -> [UInt8] {
        let strings: [[UInt8]] =
            switch random.below(3) {
            case 0: []
            case 1: [Array("host-\(random.below(9))".utf8)]
            default: [Array("net".utf8), Array(random.chance(50) ? "password".utf8 : "wrongpass".utf8)]
            }
        let data = (try? ImprovStringList.encode(strings)) ?? []
        return (try? ImprovRPCFrame(command: UInt8(random.below(8)), data: data))?.encoded ?? []
    }
}
