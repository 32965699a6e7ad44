/// The session cookie a protocomm server hands out, kept to be echoed back verbatim.
///
/// The device compares the whole `Cookie` header with `session=<id>` (`common_post_handler` in ESP-IDF's
/// `protocomm_httpd.c`), so we send exactly the pair it set, never merged with other cookies, and never
/// reformatted.
struct HTTPSessionCookie: Equatable {
    /// The `Cookie` header value: the `session=…` pair exactly as the server wrote it.
    let headerValue: String

    /// The `session` cookie among a response's `Set-Cookie` fields (the last one wins), if any.
    init?(from response: HTTPResponse) {
        let pairs = response.values(of: "Set-Cookie").compactMap(Self.sessionPair)
        guard let pair = pairs.last else { return nil }
        headerValue = pair
    }

    /// The `name=value` part before any attributes, when the name is `session` and the value is a
    /// valid cookie value (RFC 6265 §4.1.1 cookie-octets).
    private static func sessionPair(_ setCookie: String) -> String? {
        let pair = setCookie.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false)[0]
            .trimmingASCIIWhitespace()
        guard pair.hasPrefix("session=") else { return nil }
        let value = pair.utf8.dropFirst("session=".utf8.count)
        let forbidden = Set("\",;\\".utf8)
        guard !value.isEmpty, value.allSatisfy({ (0x21...0x7E).contains($0) && !forbidden.contains($0) }) else {
            return nil
        }
        return String(pair)
    }
}
