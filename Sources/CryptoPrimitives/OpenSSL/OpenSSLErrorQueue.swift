internal import COpenSSL

/// Turns OpenSSL's thread-local error queue into a ``CryptoError``, leaving the queue empty.
enum OpenSSLErrorQueue {
    static func drain(context: String) -> CryptoError {
        var messages: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        let detail = messages.isEmpty ? "no detail in the OpenSSL error queue" : messages.joined(separator: "; ")
        return .library("\(context): \(detail)")
    }
}
