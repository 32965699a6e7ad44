import CryptoPrimitives
import Protocomm
import Testing

/// Handshakes that must fail, and fail with a named reason on the side that notices.
@Suite struct HandshakeFailureTests {
    /// Runs the handshake until the device stops answering; returns what the device did and
    /// whether the client was waiting for a verdict on its credentials at that moment.
    private func failedHandshake(
        device: ProtocommDeviceConfiguration, client security: ProtocommSecurity
    ) throws -> (response: ProtocommDeviceResponse, awaitingVerdict: Bool) {
        var device = ProtocommDevice(configuration: device, random: SeededRandomSource(seed: [7]))
        var random = SeededRandomSource(seed: [8])
        var session = try ProtocommSession(security: security, random: &random)
        var request = session.start()
        while true {
            let response = device.receivedRequest(request, on: .session)
            guard case .reply(let reply) = response else { return (response, session.isAwaitingVerdict) }
            guard case .send(let next) = try session.receive(reply) else {
                throw ExampleFailure("the handshake succeeded")
            }
            request = next
        }
    }

    @Test func wrongProofOfPossessionMakesTheDeviceCloseTheConnection() throws {
        let outcome = try failedHandshake(
            device: .init(security: .security1(proofOfPossession: "abcd1234")),
            client: .security1(proofOfPossession: "abcd1235"))
        #expect(outcome.response == .closeConnection(.credentialsMismatch))
        #expect(outcome.awaitingVerdict, "the flow can map this close to protocomm.wrong-pop")
    }

    @Test func missingProofOfPossessionIsAWrongOne() throws {
        let outcome = try failedHandshake(
            device: .init(security: .security1(proofOfPossession: "abcd1234")),
            client: .security1(proofOfPossession: ""))
        #expect(outcome.response == .closeConnection(.credentialsMismatch))
    }

    @Test(arguments: [("wifiprov", "abcd1235"), ("wifiprox", "abcd1234")])
    func wrongSRPCredentialsMakeTheDeviceCloseTheConnection(username: String, password: String) throws {
        let outcome = try failedHandshake(
            device: PairCase.security2Patch1.device,
            client: .security2(username: username, password: password, patch: nil))
        #expect(outcome.response == .closeConnection(.credentialsMismatch))
        #expect(outcome.awaitingVerdict)
    }

    @Test func wrongSchemeIsRefusedByTheDevice() throws {
        let outcome = try failedHandshake(
            device: PairCase.security2Patch1.device, client: .security1(proofOfPossession: "abcd1234"))
        #expect(outcome.response == .closeConnection(.securitySchemeMismatch(expected: 2, received: 1)))
        #expect(!outcome.awaitingVerdict)
    }

    @Test(arguments: [(ProtocommSecurity2Patch.fixedNonce, 12), (.counterNonce, 16)])
    func forcedPatchLevelThatContradictsTheNonceIsNamed(clientPatch: ProtocommSecurity2Patch, nonceLength: Int) throws {
        let devicePatch: ProtocommSecurity2Patch = clientPatch == .fixedNonce ? .counterNonce : .fixedNonce
        var pair = ProtocommSessionPair(
            device: .init(security: .security2(verifier: PairCase.verifier, patch: devicePatch)))
        #expect(throws: ProtocommError.invalidLength(field: "device_nonce", length: nonceLength)) {
            try pair.establish(.security2(username: "wifiprov", password: "abcd1234", patch: clientPatch))
        }
    }

    @Test func deviceWithADifferentVerifierFailsTheClientsCheck() throws {
        // A device that accepts our proof but answers with a proof for other keys: the client must notice.
        var random = SeededRandomSource(seed: [9])
        var session = try ProtocommSession(security: .security1(proofOfPossession: "pop"), random: &random)
        var device = ProtocommSecurity1DeviceSession(proofOfPossession: "pop")
        var deviceRandom = SeededRandomSource(seed: [10])
        guard case .reply(let response0) = try device.receivedRequest(session.start(), using: &deviceRandom),
            case .send(let command1) = try session.receive(response0),
            case .established(var response1, _) = try device.receivedRequest(command1, using: &deviceRandom)
        else { throw ExampleFailure("handshake did not reach Session_Response1") }
        response1[response1.count - 1] ^= 0x01
        #expect(throws: ProtocommError.deviceProofMismatch) { try session.receive(response1) }
    }

    @Test func deviceRefusesCommand1BeforeCommand0() throws {
        var random = SeededRandomSource(seed: [11])
        var first = try ProtocommSession(security: .security1(proofOfPossession: "pop"), random: &random)
        var device = ProtocommSecurity1DeviceSession(proofOfPossession: "pop")
        var deviceRandom = SeededRandomSource(seed: [12])
        guard case .reply(let response0) = try device.receivedRequest(first.start(), using: &deviceRandom),
            case .send(let command1) = try first.receive(response0)
        else { throw ExampleFailure("handshake did not reach Session_Command1") }
        var fresh = ProtocommSecurity1DeviceSession(proofOfPossession: "pop")
        #expect(throws: ProtocommError.unexpectedMessage(expected: "sessionCommand0", received: "sessionCommand1")) {
            try fresh.receivedRequest(command1, using: &deviceRandom)
        }
    }

    @Test func encryptedEndpointBeforeTheHandshakeClosesTheConnection() {
        var device = ProtocommDevice(configuration: PairCase.security1.device, random: SeededRandomSource(seed: [13]))
        #expect(device.receivedRequest([0x52, 0x00], on: .config) == .closeConnection(.sessionNotEstablished))
    }

    @Test(arguments: [0, ProtocommDevice.maximumBodyLength + 1])
    func bodyOutsideTheHTTPHandlersLimitsClosesTheConnection(length: Int) {
        var device = ProtocommDevice(configuration: .init(security: .security0), random: SeededRandomSource(seed: [14]))
        let body = [UInt8](repeating: 0x41, count: length)
        #expect(device.receivedRequest(body, on: .protocolVersion) == .closeConnection(.invalidBodyLength(length)))
    }
}
