import CryptoPrimitives
import Protocomm
import Testing

/// Arbitrary bytes never crash a parser, a session or the emulated device: they end in a value
/// or in a `ProtocommError` the peer is to blame for. Seeded, so a failure reproduces.
@Suite struct RandomizedInputTests {
    static let iterations = 1500

    private static let configSeeds = [
        ProtocommWiFiConfigRequest.getStatus.serializedBytes(),
        ProtocommWiFiConfigRequest.applyConfig.serializedBytes(),
        ProtocommWiFiConfigRequest.setConfig(try! ProtocommWiFiCredentials(ssid: "myssid", passphrase: "pw"))
            .serializedBytes(),
        ProtocommWiFiConfigResponse.status(.connected(ProtocommWiFiConnection(ipAddress: "10.0.0.2")))
            .serializedBytes(),
        ProtocommWiFiConfigResponse.status(.failed(.networkNotFound)).serializedBytes(),
        ProtocommWiFiConfigResponse.configSet.serializedBytes(),
    ]

    private static let scanSeeds = [
        ProtocommWiFiScanRequest.start(ProtocommWiFiScanOptions()).serializedBytes(),
        ProtocommWiFiScanRequest.results(startIndex: 1, count: 2).serializedBytes(),
        ProtocommWiFiScanResponse.results(ProtocommDeviceWiFiPlan.sampleNetworks).serializedBytes(),
        ProtocommWiFiScanResponse.status(finished: true, resultCount: 3).serializedBytes(),
    ]

    private static let controlSeeds = [
        ProtocommWiFiControlRequest.reset.serializedBytes(), ProtocommWiFiControlResponse.reprovision.serializedBytes(),
    ]

    /// The property every parser must have: a parsed value re-encodes to something that parses the same.
    private func expectRoundTrip<Value: Equatable>(
        _ input: [UInt8], parse: ([UInt8]) throws(ProtocommError) -> Value, encode: (Value) -> [UInt8]
    ) {
        do {
            let value = try parse(input)
            #expect(try parse(encode(value)) == value, "input \(input)")
        } catch {
            #expect(error.origin == .peer, "input \(input) → \(error)")
        }
    }

    @Test func wifiConfigParsers() {
        for input in FuzzInputs(seed: "config", count: Self.iterations, mutating: Self.configSeeds) {
            expectRoundTrip(
                input, parse: ProtocommWiFiConfigResponse.init(serializedBytes:), encode: { $0.serializedBytes() })
            do {
                let request = try ProtocommWiFiConfigRequest(serializedBytes: input)
                #expect(try ProtocommWiFiConfigRequest(serializedBytes: request.serializedBytes()) == request)
            } catch {
                // Out-of-range credentials are the caller-side length errors; the device maps them to InvalidArgument.
                #expect([.peer, .caller].contains(error.origin))
            }
        }
    }

    @Test func wifiScanParsers() {
        for input in FuzzInputs(seed: "scan", count: Self.iterations, mutating: Self.scanSeeds) {
            expectRoundTrip(
                input, parse: ProtocommWiFiScanRequest.init(serializedBytes:), encode: { $0.serializedBytes() })
            expectRoundTrip(
                input, parse: ProtocommWiFiScanResponse.init(serializedBytes:), encode: { $0.serializedBytes() })
        }
    }

    @Test func wifiControlParsers() {
        for input in FuzzInputs(seed: "ctrl", count: Self.iterations, mutating: Self.controlSeeds) {
            expectRoundTrip(
                input, parse: ProtocommWiFiControlRequest.init(serializedBytes:), encode: { $0.serializedBytes() })
            expectRoundTrip(
                input, parse: ProtocommWiFiControlResponse.init(serializedBytes:), encode: { $0.serializedBytes() })
        }
    }

    @Test func versionInfoParser() {
        let seeds = PairCase.all.map { $0.device.versionInfo.responseBody() }
        for input in FuzzInputs(seed: "proto-ver", count: Self.iterations, mutating: seeds) {
            expectRoundTrip(input, parse: ProtocommVersionInfo.init(responseBody:), encode: { $0.responseBody() })
        }
    }

    @Test(arguments: [PairCase.all[0], PairCase.security1, PairCase.security2Patch1])
    func clientHandshakeAtEveryStep(_ pairCase: PairCase) throws {
        // Record a good handshake, then feed each step mutated replies from a copy of the session.
        var pair = ProtocommSessionPair(device: pairCase.device, seed: "fuzz")
        var random = SeededRandomSource(seed: [42])
        var session = try ProtocommSession(
            security: try pair.versionInfo().security(credentials: pairCase.credentials), random: &random)
        var request = session.start()
        while true {
            let reply = try pair.post(request, to: .session)
            for input in FuzzInputs(seed: "step", count: Self.iterations / 5, mutating: [reply]) {
                var copy = session
                do {
                    _ = try copy.receive(input)
                } catch {
                    #expect(error.origin == .peer, "input \(input) → \(error)")
                }
            }
            guard case .send(let next) = try session.receive(reply) else { break }
            request = next
        }
    }

    @Test(arguments: [PairCase.all[0], PairCase.security1, PairCase.security2Patch1])
    func emulatedDeviceOnEveryEndpoint(_ pairCase: PairCase) throws {
        var pair = ProtocommSessionPair(device: pairCase.device, seed: "fuzz-device")
        try pair.establish(try pair.versionInfo().security(credentials: pairCase.credentials))
        let seeds = Self.configSeeds + Self.scanSeeds + Self.controlSeeds
        let endpoints: [ProtocommEndpoint] = [
            .protocolVersion, .config, .scan, .control, .custom("custom-data"), .session,
        ]
        for (index, input) in FuzzInputs(seed: "device", count: Self.iterations, mutating: seeds).enumerated() {
            var device = pair.device
            switch device.receivedRequest(input, on: endpoints[index % endpoints.count]) {
            case .reply: break
            case .closeConnection(let error): #expect(error.origin == .peer, "input \(input) → \(error)")
            case .notFound: Issue.record("registered endpoint answered 404")
            }
        }
    }
}
