import CryptoPrimitives
import Foundation
import TestSupport
import Testing

private struct X25519Vectors: Decodable {
    struct ScalarCase: Decodable {
        let id, scalar, u, output: String
    }
    struct DiffieHellman: Decodable {
        let alicePrivate, alicePublic, bobPrivate, bobPublic, shared: String
    }
    let scalarMultiplication: [ScalarCase]
    let diffieHellman: DiffieHellman
}

@Suite struct X25519Tests {
    private let vectors: X25519Vectors

    init() throws {
        vectors = try VectorFile.load(X25519Vectors.self, named: "x25519", in: .module)
    }

    @Test func scalarMultiplicationMatchesRFC7748() throws {
        for vector in vectors.scalarMultiplication {
            let pair = try X25519KeyPair(privateKey: [UInt8](hex: vector.scalar))
            #expect(
                try pair.sharedSecret(peerPublicKey: [UInt8](hex: vector.u)).hexString == vector.output, "\(vector.id)")
        }
    }

    @Test func diffieHellmanMatchesRFC7748() throws {
        let dh = vectors.diffieHellman
        let alice = try X25519KeyPair(privateKey: [UInt8](hex: dh.alicePrivate))
        let bob = try X25519KeyPair(privateKey: [UInt8](hex: dh.bobPrivate))
        #expect(alice.publicKey.hexString == dh.alicePublic)
        #expect(bob.publicKey.hexString == dh.bobPublic)
        #expect(try alice.sharedSecret(peerPublicKey: bob.publicKey).hexString == dh.shared)
        #expect(try bob.sharedSecret(peerPublicKey: alice.publicKey).hexString == dh.shared)
    }

    @Test func refusesSmallOrderAndMisSizedPeerKeys() throws {
        var random = SeededRandomSource(seed: Array("x25519".utf8))
        let pair = X25519KeyPair.generate(using: &random)
        #expect(throws: CryptoError.degenerateSharedSecret) {
            try pair.sharedSecret(peerPublicKey: [UInt8](repeating: 0, count: 32))
        }
        #expect(throws: CryptoError.invalidPublicKey) { try pair.sharedSecret(peerPublicKey: [1, 2, 3]) }
        #expect(throws: CryptoError.invalidKeyLength(31)) {
            try X25519KeyPair(privateKey: [UInt8](repeating: 1, count: 31))
        }
    }
}
