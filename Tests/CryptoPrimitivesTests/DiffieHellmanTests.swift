import CryptoPrimitives
import Foundation
import TestSupport
import Testing

private struct DHVectors: Decodable {
    struct V1: Decodable {
        let phonePrivate, devicePrivate, phonePublic, devicePublic, secret, md5OfStrippedSecret: String
    }
    struct V1LeadingZero: Decodable {
        let phonePrivate, devicePrivate, secretPrefix, md5OfStrippedSecret, md5OfPaddedSecret: String
    }
    struct V2: Decodable {
        let phonePrivate, devicePrivate, sha256OfPhonePublic, sha256OfDevicePublic, secretPrefix,
            sha256OfPaddedSecret: String
    }
    struct V2LeadingZero: Decodable {
        let phonePrivate, devicePrivate, secretPrefix, sha256OfPaddedSecret, sha256OfStrippedSecret: String
    }
    let v1Prime: String
    let v1: V1
    let v1LeadingZero: V1LeadingZero
    let v2: V2
    let v2LeadingZero: V2LeadingZero
}

@Suite struct DiffieHellmanTests {
    private let vectors: DHVectors
    private let v1Group: DHGroup

    init() throws {
        vectors = try VectorFile.load(DHVectors.self, named: "dh", in: .module)
        v1Group = DHGroup(prime: [UInt8](hex: vectors.v1Prime), generator: [2])
    }

    @Test func bluFiV1NonSafePrimeSessionMatchesWorkedExample() throws {
        let phone = try DHKeyPair(group: v1Group, privateKey: [UInt8](hex: vectors.v1.phonePrivate))
        let device = try DHKeyPair(group: v1Group, privateKey: [UInt8](hex: vectors.v1.devicePrivate))
        #expect(phone.publicKey.hexString == vectors.v1.phonePublic)
        #expect(device.publicKey.hexString == vectors.v1.devicePublic)
        let secret = try phone.sharedSecret(peerPublicKey: device.publicKey)
        #expect(secret.fixedWidth.hexString == vectors.v1.secret)
        #expect(try device.sharedSecret(peerPublicKey: phone.publicKey) == secret)
        #expect(Digest.md5(secret.stripped).hexString == vectors.v1.md5OfStrippedSecret)
    }

    @Test func bluFiV1LeadingZeroSecretStripsToTheDevicesKey() throws {
        let phone = try DHKeyPair(group: v1Group, privateKey: [UInt8](hex: vectors.v1LeadingZero.phonePrivate))
        let device = try DHKeyPair(group: v1Group, privateKey: [UInt8](hex: vectors.v1LeadingZero.devicePrivate))
        let secret = try phone.sharedSecret(peerPublicKey: device.publicKey)
        #expect(secret.fixedWidth.count == 128)
        #expect(secret.stripped.count == 127)
        #expect(secret.fixedWidth.hexString.hasPrefix(vectors.v1LeadingZero.secretPrefix))
        #expect(Digest.md5(secret.stripped).hexString == vectors.v1LeadingZero.md5OfStrippedSecret)
        #expect(Digest.md5(secret.fixedWidth).hexString == vectors.v1LeadingZero.md5OfPaddedSecret)
    }

    @Test func bluFiV2FFDHE3072MatchesWorkedExample() throws {
        let phone = try DHKeyPair(group: .ffdhe3072, privateKey: [UInt8](hex: vectors.v2.phonePrivate))
        let device = try DHKeyPair(group: .ffdhe3072, privateKey: [UInt8](hex: vectors.v2.devicePrivate))
        #expect(phone.publicKey.count == 384)
        #expect(Digest.sha256(phone.publicKey).hexString == vectors.v2.sha256OfPhonePublic)
        #expect(Digest.sha256(device.publicKey).hexString == vectors.v2.sha256OfDevicePublic)
        let secret = try phone.sharedSecret(peerPublicKey: device.publicKey)
        #expect(secret.fixedWidth.hexString.hasPrefix(vectors.v2.secretPrefix))
        #expect(Digest.sha256(secret.fixedWidth).hexString == vectors.v2.sha256OfPaddedSecret)
    }

    @Test func bluFiV2LeadingZeroKeepsThePaddedForm() throws {
        let phone = try DHKeyPair(group: .ffdhe3072, privateKey: [UInt8](hex: vectors.v2LeadingZero.phonePrivate))
        let device = try DHKeyPair(group: .ffdhe3072, privateKey: [UInt8](hex: vectors.v2LeadingZero.devicePrivate))
        let secret = try phone.sharedSecret(peerPublicKey: device.publicKey)
        #expect(secret.fixedWidth.hexString.hasPrefix(vectors.v2LeadingZero.secretPrefix))
        #expect(Digest.sha256(secret.fixedWidth).hexString == vectors.v2LeadingZero.sha256OfPaddedSecret)
        #expect(Digest.sha256(secret.stripped).hexString == vectors.v2LeadingZero.sha256OfStrippedSecret)
    }

    @Test func refusesDegeneratePeerKeys() throws {
        let pair = try DHKeyPair(group: v1Group, privateKey: [0x42])
        let pMinusOne = v1Group.prime.subtracting(BigNumber(1), modulus: v1Group.prime).magnitude
        for peer in [[0], [1], pMinusOne, v1Group.prime.magnitude, [UInt8](repeating: 0xFF, count: 129)] {
            #expect(throws: CryptoError.invalidPublicKey) { try pair.sharedSecret(peerPublicKey: peer) }
        }
    }

    @Test func generatedPairsAgree() throws {
        var random = SeededRandomSource(seed: Array("dh".utf8))
        let phone = DHKeyPair.generate(in: v1Group, using: &random)
        let device = DHKeyPair.generate(in: v1Group, privateKeyByteCount: 32, using: &random)
        #expect(
            try phone.sharedSecret(peerPublicKey: device.publicKey)
                == device.sharedSecret(peerPublicKey: phone.publicKey))
    }
}
