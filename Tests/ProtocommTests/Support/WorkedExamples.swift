import Foundation
import TestSupport
import Testing

/// The worked examples in `Vectors/security1.json` and `Vectors/security2.json` (each names its source).
enum WorkedExamples {
    struct Security1: Decodable {
        struct Handshake: Decodable {
            let command0, response0, command1, response1: String
        }

        struct Message: Decodable, Sendable, CustomTestStringConvertible {
            let comment: String
            let fromClient: Bool?
            let offset: Int?
            let plaintext, ciphertext: String
            var testDescription: String { comment }
        }

        let proofOfPossession, clientPrivateKey, devicePrivateKey, clientPublicKey, devicePublicKey: String
        let deviceRandom, clientVerifyData, deviceVerifyData: String
        let handshake: Handshake
        let traffic: [Message]
        let firstMessages: [Message]
    }

    struct Security2: Decodable {
        struct Patch: Decodable, Sendable, CustomTestStringConvertible {
            let comment: String
            var testDescription: String { comment }
            let patch: Int
            let deviceNonceRandom, deviceNonce: String
            let requestPlaintext, requestCiphertext, responsePlaintext, responseCiphertext: String
        }

        let username, password, salt, clientSecret, deviceSecret, x: String
        let verifierFirst8, verifierLast8, clientPublicFirst8, clientPublicLast8: String
        let devicePublicFirst8, devicePublicLast8: String
        let u, sessionKey, clientProof, deviceProof, aesKey: String
        let patches: [Patch]
    }

    static func security1() throws -> Security1 {
        try VectorFile.load(Security1.self, named: "security1", in: .module)
    }

    static func security2() throws -> Security2 {
        try VectorFile.load(Security2.self, named: "security2", in: .module)
    }
}
