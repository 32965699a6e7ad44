import StringEssentials

/// The secrets inside a PostgreSQL URL, found without a URL parser so that even a URL libpq would
/// reject is redacted.
///
/// People write passwords raw, with `/ ? @ #` in them, so nothing in the user info can be trusted to
/// delimit it: everything between `://` and the last `@` is hidden, user name included. Every
/// `password=` parameter (in any case, however often repeated) is hidden too.
struct PostgresURLPassword {
    /// The secrets as written in the URL (maybe percent-encoded), longest first.
    let written: [String]
    private let url: String

    init(_ url: String) {
        self.url = url
        let userInfo = Self.userInfo(in: url)
        let password = userInfo.flatMap { info in
            info.firstIndex(of: ":").map { String(info[info.index(after: $0)...]) }
        }
        let parameters = Self.passwordParameters(in: url).map { String(url[$0]) }
        written = ([userInfo, password].compactMap { $0 } + parameters)
            .filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// The URL with its user info and every `password=` value replaced by `****`.
    var redactedURL: String {
        var ranges = Self.passwordParameters(in: url)
        if let range = Self.userInfoRange(in: url) { ranges.append(range) }
        var text = url
        for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) where !range.isEmpty {
            text.replaceSubrange(range, with: "****")
        }
        return text
    }

    /// The characters that end or break libpq's reading of user info, percent-encoded by
    /// ``encodingUserInfo(_:)``; a `%` counts when no two hex digits follow it.
    private static let delimiters: [(raw: String, encoded: String)] = [
        ("%", "%25"), ("/", "%2F"), ("?", "%3F"), ("#", "%23"), ("@", "%40"), ("[", "%5B"), ("]", "%5D"), (" ", "%20"),
    ]

    /// `url` with the delimiters in its user name and password percent-encoded, so libpq splits the user
    /// info where this type does (at the last `@`) instead of at the first `/`, `?`, `#` or `@` of a
    /// raw password, and never quotes a piece of one in an error ("invalid port", "could not translate
    /// host name"). Existing `%XX` escapes stay; only user info of the `user:password` form is touched.
    static func encodingUserInfo(_ url: String) -> String {
        guard let range = userInfoRange(in: url), let colon = url[range].firstIndex(of: ":") else { return url }
        let user = url[range.lowerBound..<colon]
        let password = url[url.index(after: colon)..<range.upperBound]
        var text = url
        text.replaceSubrange(range, with: encoded(user) + ":" + encoded(password))
        return text
    }

    private static func encoded(_ text: Substring) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let following = text[text.index(after: index)...].prefix(2)
            let isEscape = character == "%" && following.count == 2 && following.allSatisfy(\.isHexDigit)
            if !isEscape, let delimiter = delimiters.first(where: { $0.raw == String(character) }) {
                result += delimiter.encoded
            } else {
                result.append(character)
            }
            index = text.index(after: index)
        }
        return result
    }

    /// Undoes exactly what ``encodingUserInfo(_:)`` did (and decodes the same escapes where the user
    /// wrote them), giving the secret as the user typed it even when it is not valid percent-encoding.
    private static func decodingDelimiters(_ text: String) -> String {
        delimiters.reversed().reduce(text) {
            $0.replacing($1.encoded, with: $1.raw).replacing($1.encoded.lowercased(), with: $1.raw)
        }
    }

    /// `text` with every occurrence of a secret, as written and percent-decoded, replaced by `****`.
    func redacted(_ text: String) -> String {
        if text == url { return redactedURL }
        let forms = written.flatMap { [$0, $0.removingPercentEscapes, Self.decodingDelimiters($0)].compactMap { $0 } }
            .filter { !$0.isEmpty }
        return forms.sorted { $0.count > $1.count }.reduce(text.replacing(url, with: redactedURL)) {
            $0.replacing($1, with: "****")
        }
    }

    private static func userInfoRange(in url: String) -> Range<String.Index>? {
        guard let schemeEnd = url.firstRange(of: "://"), let at = url[schemeEnd.upperBound...].lastIndex(of: "@") else {
            return nil
        }
        return schemeEnd.upperBound..<at
    }

    private static func userInfo(in url: String) -> String? {
        userInfoRange(in: url).map { String(url[$0]) }
    }

    /// The value ranges of every `password=` parameter after the first `?`, matched without regard to case.
    private static func passwordParameters(in url: String) -> [Range<String.Index>] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        var ranges: [Range<String.Index>] = []
        var start = url.index(after: question)
        while start < url.endIndex {
            let end = url[start...].firstIndex(of: "&") ?? url.endIndex
            let pair = url[start..<end]
            let key = pair.prefix { $0 != "=" }
            if key.trimmingSpaces().lowercased() == "password", key.endIndex < pair.endIndex {
                ranges.append(url.index(after: key.endIndex)..<end)
            }
            start = end < url.endIndex ? url.index(after: end) : end
        }
        return ranges
    }
}
