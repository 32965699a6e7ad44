import CryptoPrimitives
import Foundation
import TestSupport
import Testing

private struct AESVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let id, mode, key, iv, plaintext, ciphertext: String
        var testDescription: String { id }
    }
    let cases: [Case]
}

private let aesCases = (try? VectorFile.load(AESVectors.self, named: "aes", in: .module).cases) ?? []

@Suite struct AESTests {
    @Test func vectorFileLoads() {
        #expect(aesCases.count == 6)
    }

    @Test(arguments: aesCases)
    fileprivate func encryptsAndDecryptsNISTVector(_ vector: AESVectors.Case) throws {
        let key = [UInt8](hex: vector.key), iv = [UInt8](hex: vector.iv)
        let plaintext = [UInt8](hex: vector.plaintext), ciphertext = [UInt8](hex: vector.ciphertext)
        switch vector.mode {
        case "cfb128":
            #expect(try AES.CFB128.encrypt(plaintext, key: key, iv: iv) == ciphertext)
            #expect(try AES.CFB128.decrypt(ciphertext, key: key, iv: iv) == plaintext)
        case "ctr":
            var encryptor = try AESCTRStream(key: key, initialCounter: iv)
            #expect(encryptor.apply(plaintext) == ciphertext)
            var decryptor = try AESCTRStream(key: key, initialCounter: iv)
            #expect(decryptor.apply(ciphertext) == plaintext)
        case "cbc-nopad":
            // SP 800-38A has no padding; with PKCS#7 the first blocks must still match and one pad block follows.
            let padded = try AES.CBC.encrypt(plaintext, key: key, iv: iv)
            #expect(Array(padded.prefix(ciphertext.count)) == ciphertext)
            #expect(padded.count == ciphertext.count + 16)
            #expect(try AES.CBC.decrypt(padded, key: key, iv: iv) == plaintext)
        default:
            Issue.record("unknown mode \(vector.mode)")
        }
    }

    @Test func ctrStreamContinuesAcrossCallsOfAnyLength() throws {
        let vector = try #require(aesCases.first { $0.mode == "ctr" })
        let plaintext = [UInt8](hex: vector.plaintext)
        var stream = try AESCTRStream(key: [UInt8](hex: vector.key), initialCounter: [UInt8](hex: vector.iv))
        var pieces: [UInt8] = []
        var start = 0
        for length in [1, 5, 10, 16, 0, 3, 29] {
            pieces += stream.apply(Array(plaintext[start..<start + length]))
            start += length
        }
        #expect(pieces == [UInt8](hex: vector.ciphertext))
        #expect(stream.position == 64)
    }

    @Test func ctrCounterCarriesAcrossAllSixteenBytes() throws {
        let key = [UInt8](repeating: 7, count: 32)
        let nearWrap = [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
        var continuous = try AESCTRStream(key: key, initialCounter: nearWrap)
        _ = continuous.apply([UInt8](repeating: 0, count: 16))
        let secondBlock = continuous.apply([UInt8](repeating: 0, count: 16))
        var carried = try AESCTRStream(
            key: key, initialCounter: [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8))
        #expect(carried.apply([UInt8](repeating: 0, count: 16)) == secondBlock)
    }

    @Test func cbcRejectsWrongKeyAsBadPadding() throws {
        let key = [UInt8](repeating: 1, count: 16), iv = [UInt8](repeating: 2, count: 16)
        let sealed = try AES.CBC.encrypt(Array("{\"id\":1}".utf8), key: key, iv: iv)
        #expect(throws: CryptoError.invalidPadding) {
            try AES.CBC.decrypt(sealed, key: [UInt8](repeating: 9, count: 16), iv: iv)
        }
        #expect(throws: CryptoError.invalidPadding) { try AES.CBC.decrypt([1, 2, 3], key: key, iv: iv) }
        #expect(throws: CryptoError.invalidPadding) { try AES.CBC.decrypt([], key: key, iv: iv) }
    }

    @Test func rejectsBadKeyAndIVSizes() {
        #expect(throws: CryptoError.invalidKeyLength(15)) {
            try AES.CFB128.encrypt([1], key: [UInt8](repeating: 0, count: 15), iv: [UInt8](repeating: 0, count: 16))
        }
        #expect(throws: CryptoError.invalidNonceLength(12)) {
            try AESCTRStream(key: [UInt8](repeating: 0, count: 16), initialCounter: [UInt8](repeating: 0, count: 12))
        }
    }
}
