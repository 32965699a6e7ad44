internal import COpenSSL

/// EVP one-shot digests.
enum OpenSSLDigest {
    enum Algorithm {
        case md5, sha256, sha512

        var evp: OpaquePointer {
            switch self {
            case .md5: EVP_md5()
            case .sha256: EVP_sha256()
            case .sha512: EVP_sha512()
            }
        }
    }

    static func compute(_ algorithm: Algorithm, _ data: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        // EVP_Digest fails only on allocation failure or a missing provider, both unrecoverable here.
        guard EVP_Digest(data, data.count, &output, &length, algorithm.evp, nil) == 1 else {
            fatalError("\(OpenSSLErrorQueue.drain(context: "EVP_Digest"))")
        }
        return Array(output.prefix(Int(length)))
    }
}
