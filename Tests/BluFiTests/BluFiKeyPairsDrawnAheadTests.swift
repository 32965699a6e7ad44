import BluFi
import CryptoPrimitives
import Synchronization
import Testing

/// Key pairs drawn before the session: the negotiation takes the one of its group instead of drawing, each
/// serves one session, and a session with one completes against the device model.
@Suite struct BluFiKeyPairsDrawnAheadTests {
    @Test(arguments: [(BluFiSecurityScheme.v2, 4), (.v1, 3)])
    func theNegotiationTakesThePairOfItsGroupAndDrawsNothing(scheme: BluFiSecurityScheme, minor: Int) throws {
        let draws = Draws()
        var pair = Self.pair(version: minor, scheme: scheme, drawnAhead: .automatic, draws: draws)
        let offered = try #require(pair.client.keyPairsDrawnAhead.first { $0.group == scheme.group }).publicKey

        pair.connect(mtu: 185)

        // Keys agreed with nothing drawn: the session's exponent is the pair's.
        #expect(pair.client.isReady && pair.client.securityScheme == scheme)
        #expect(draws.count == 0)
        #expect(!pair.client.keyPairsDrawnAhead.contains { $0.publicKey == offered })
    }

    @Test func aPairServesOneSessionAndTheNextDrawsAFreshOne() {
        let draws = Draws()
        var pair = Self.pair(version: 4, scheme: .v2, drawnAhead: .fixed(.v2), draws: draws)
        pair.connect(mtu: 185)
        #expect(pair.client.isReady && draws.count == 0)

        pair.connect(mtu: 185)

        #expect(pair.client.isReady && pair.client.securityScheme == .v2)
        #expect(draws.count == 1)
    }

    @Test func aPairOfAnotherGroupIsLeftAndTheSessionDraws() {
        let draws = Draws()
        var pair = Self.pair(version: 3, scheme: .v1, drawnAhead: .fixed(.v2), draws: draws)

        pair.connect(mtu: 185)

        #expect(pair.client.isReady && pair.client.securityScheme == .v1)
        #expect(draws.count == 1)
        #expect(pair.client.keyPairsDrawnAhead.count == 1)
    }

    @Test func eachChoiceDrawsThePairsItMayNegotiate() {
        var random = SeededRandomSource(seed: [0xA7])
        let automatic = BluFiSecurityChoice.automatic.drawKeyPairs(using: &random)
        #expect(automatic.map(\.publicKey.count) == [384, 128])
        #expect(BluFiSecurityChoice.fixed(.v1).drawKeyPairs(using: &random).map(\.group) == [automatic[1].group])
        #expect(BluFiSecurityChoice.fixed(.none).drawKeyPairs(using: &random).isEmpty)
    }

    /// An automatic client whose draws are counted, given the pairs `drawnAhead` draws, and a device of
    /// version 1.`minor` running `scheme`.
    private static func pair(
        version minor: Int, scheme: BluFiSecurityScheme, drawnAhead: BluFiSecurityChoice, draws: Draws
    ) -> BluFiSessionPair {
        var ahead = SeededRandomSource(seed: [0xA4])
        var client = BluFiClient(random: CountingRandomSource(draws: draws))
        client.keyPairsDrawnAhead = drawnAhead.drawKeyPairs(using: &ahead)
        return BluFiSessionPair(
            client: client,
            device: BluFiDeviceSession(
                configuration: BluFiDeviceConfiguration(
                    version: BluFiVersion(major: 1, minor: UInt8(minor)), security: scheme == .v2 ? .v2 : .v1),
                random: SeededRandomSource(seed: [0xDE])))
    }
}

/// How many times a client asked its random source for bytes.
private final class Draws: Sendable {
    private let counter = Mutex(0)
    var count: Int { counter.withLock { $0 } }
    func add() { counter.withLock { $0 += 1 } }
}

private struct CountingRandomSource: RandomSource {
    let draws: Draws
    var inner = SeededRandomSource(seed: [0xC1])

    mutating func bytes(_ count: Int) -> [UInt8] {
        draws.add()
        return inner.bytes(count)
    }
}
