import CryptoPrimitives
import Foundation
import TestSupport
import Testing

private struct DigestVectors: Decodable {
    struct Case: Decodable, CustomTestStringConvertible {
        let id, algorithm, message, digest: String
        var testDescription: String { id }
    }
    let cases: [Case]
}

private let digestCases = (try? VectorFile.load(DigestVectors.self, named: "digests", in: .module).cases) ?? []

@Suite struct DigestTests {
    @Test func vectorFileLoads() {
        #expect(digestCases.count == 10)
    }

    @Test(arguments: digestCases)
    fileprivate func matchesStandardDigest(_ vector: DigestVectors.Case) {
        let message = Array(vector.message.utf8)
        let digest: [UInt8] =
            switch vector.algorithm {
            case "md5": Digest.md5(message)
            case "sha256": Digest.sha256(message)
            default: Digest.sha512(message)
            }
        #expect(digest.hexString == vector.digest)
    }
}
