import CryptoPrimitives
import Foundation
import TestSupport
import Testing

private struct GCMVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let id, key, nonce, aad, plaintext, ciphertext, tag: String
        var testDescription: String { id }
    }
    let cases: [Case]
}

private let gcmCases = (try? VectorFile.load(GCMVectors.self, named: "gcm", in: .module).cases) ?? []

@Suite struct AESGCMTests {
    @Test func vectorFileLoads() {
        #expect(gcmCases.count == 5)
    }

    @Test(arguments: gcmCases)
    fileprivate func sealsAndOpensPublishedVector(_ vector: GCMVectors.Case) throws {
        let key = [UInt8](hex: vector.key), nonce = [UInt8](hex: vector.nonce), aad = [UInt8](hex: vector.aad)
        let sealed = [UInt8](hex: vector.ciphertext + vector.tag)
        #expect(try AES.GCM.seal([UInt8](hex: vector.plaintext), key: key, nonce: nonce, authenticating: aad) == sealed)
        #expect(try AES.GCM.open(sealed, key: key, nonce: nonce, authenticating: aad) == [UInt8](hex: vector.plaintext))
    }

    @Test func refusesTamperedCiphertextTagOrNonce() throws {
        let key = [UInt8](repeating: 3, count: 32), nonce = [UInt8](repeating: 4, count: 16)
        let sealed = try AES.GCM.seal(Array("status".utf8), key: key, nonce: nonce)
        var flipped = sealed
        flipped[0] ^= 1
        #expect(throws: CryptoError.authenticationFailed) { try AES.GCM.open(flipped, key: key, nonce: nonce) }
        #expect(throws: CryptoError.authenticationFailed) {
            try AES.GCM.open(sealed, key: key, nonce: [UInt8](repeating: 5, count: 16))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try AES.GCM.open(Array(sealed.prefix(10)), key: key, nonce: nonce)
        }
    }
}
