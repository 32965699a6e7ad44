internal import COpenSSL

/// OpenSSL's DRBG, seeded from the kernel.
enum OpenSSLRandom {
    static func bytes(_ count: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: count)
        guard count > 0 else { return output }
        // RAND_bytes fails only when the kernel cannot seed the DRBG; continuing would hand out zeros.
        guard RAND_bytes(&output, Int32(count)) == 1 else {
            fatalError("\(OpenSSLErrorQueue.drain(context: "RAND_bytes"))")
        }
        return output
    }
}
