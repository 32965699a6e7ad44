import StringEssentials

/// The secrets inside a PostgreSQL URL, found without a URL parser so that even a URL libpq would
/// reject is redacted.
///
/// People write passwords raw, with `/ ? @ # &` in them, so no single character can be trusted to
/// delimit one. The query starts at the first `?` followed by a libpq parameter name and `=`; everything
/// between `://` and the last `@` before it is hidden, user name included. The value of every secret
/// parameter (`password`, `sslpassword`, …, in any case, however often repeated) is hidden up to the next
/// `&` followed by a libpq parameter name and `=`, or to the end.
public struct PostgresURLPassword: Sendable {
    /// The secrets as written in the URL (maybe percent-encoded), longest first.
    let written: [String]
    private let url: String

    public init(_ url: String) {
        self.url = url
        let userInfo = Self.userInfo(in: url)
        let password = userInfo.flatMap { info in
            info.firstIndex(of: ":").map { String(info[info.index(after: $0)...]) }
        }
        let parameters = Self.passwordParameters(in: url).map { String(url[$0]) }
        written = ([userInfo, password].compactMap { $0 } + parameters)
            .filter { !$0.isEmpty }.sorted { $0.count > $1.count }
    }

    /// The URL with its user info and every secret parameter's value replaced by `****`.
    public var redactedURL: String {
        var ranges = Self.passwordParameters(in: url)
        if let range = Self.userInfoRange(in: url) { ranges.append(range) }
        var text = url
        for range in ranges.sorted(by: { $0.lowerBound > $1.lowerBound }) where !range.isEmpty {
            text.replaceSubrange(range, with: "****")
        }
        return text
    }

    /// The characters that end or break libpq's reading of user info or of a query value, percent-encoded
    /// by ``encodingSecrets(_:)``; a `%` counts when no two hex digits follow it.
    private static let delimiters: [(raw: String, encoded: String)] = [
        ("%", "%25"), ("/", "%2F"), ("?", "%3F"), ("#", "%23"), ("@", "%40"), ("[", "%5B"), ("]", "%5D"), (" ", "%20"),
        ("&", "%26"), ("=", "%3D"),
    ]

    /// libpq's connection parameters (`PQconndefaults`), by which the query and its pairs are found.
    public static let parameterNames: Set<String> = [
        "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
        "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
        "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout",
        "replication", "gssencmode", "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert",
        "sslkey", "sslkeylogfile", "sslpassword", "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni",
        "requirepeer", "ssl_min_protocol_version", "ssl_max_protocol_version", "min_protocol_version",
        "max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
        "load_balance_hosts", "scram_client_key", "scram_server_key", "oauth_issuer", "oauth_client_id",
        "oauth_client_secret", "oauth_scope",
    ]

    /// The parameters whose values are secrets.
    static let secretParameterNames: Set<String> = [
        "password", "sslpassword", "oauth_client_secret", "scram_client_key", "scram_server_key",
    ]

    /// `url` with the delimiters in its user name, password and secret parameter values percent-encoded,
    /// so libpq splits the URL where this type does (user info at the last `@` before the query, a secret
    /// value at the next `&name=`) instead of at a raw `/`, `?`, `#`, `@` or `&` of a password, and never
    /// quotes a piece of one in an error ("invalid port", "invalid URI query parameter"). Existing `%XX`
    /// escapes stay; user info without a `:` is left as it is.
    public static func encodingSecrets(_ url: String) -> String {
        var text = url
        for range in passwordParameters(in: url).sorted(by: { $0.lowerBound > $1.lowerBound }) {
            text.replaceSubrange(range, with: encoded(url[range]))
        }
        guard let range = userInfoRange(in: text), let colon = text[range].firstIndex(of: ":") else { return text }
        let user = text[range.lowerBound..<colon]
        let password = text[text.index(after: colon)..<range.upperBound]
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

    /// Undoes exactly what ``encodingSecrets(_:)`` did (and decodes the same escapes where the user
    /// wrote them), giving the secret as the user typed it even when it is not valid percent-encoding.
    private static func decodingDelimiters(_ text: String) -> String {
        delimiters.reversed().reduce(text) {
            $0.replacing($1.encoded, with: $1.raw).replacing($1.encoded.lowercased(), with: $1.raw)
        }
    }

    /// `text` with every occurrence of a secret, as written and percent-decoded, replaced by `****`.
    public func redacted(_ text: String) -> String {
        if text == url { return redactedURL }
        let forms = written.flatMap { [$0, $0.removingPercentEscapes, Self.decodingDelimiters($0)].compactMap { $0 } }
            .filter { !$0.isEmpty }
        return forms.sorted { $0.count > $1.count }.reduce(text.replacing(url, with: redactedURL)) {
            $0.replacing($1, with: "****")
        }
    }

    /// Between `://` and the last `@` before the query.
    private static func userInfoRange(in url: String) -> Range<String.Index>? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let end = queryStart(in: url) ?? url.endIndex
        guard schemeEnd.upperBound <= end, let at = url[schemeEnd.upperBound..<end].lastIndex(of: "@") else {
            return nil
        }
        return schemeEnd.upperBound..<at
    }

    private static func userInfo(in url: String) -> String? {
        userInfoRange(in: url).map { String(url[$0]) }
    }

    /// The first `?` after `://` that a libpq parameter name and `=` follow: a `?` in a raw password does not
    /// start the query.
    private static func queryStart(in url: String) -> String.Index? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        var index = schemeEnd.upperBound
        while let question = url[index...].firstIndex(of: "?") {
            if startsPair(url, at: url.index(after: question)) { return question }
            index = url.index(after: question)
        }
        return nil
    }

    /// Whether a libpq parameter name (in any case) and `=` start at `index`.
    private static func startsPair(_ url: String, at index: String.Index) -> Bool {
        let name = url[index...].prefix { $0 != "=" && $0 != "&" }
        guard name.endIndex < url.endIndex, url[name.endIndex] == "=" else { return false }
        return parameterNames.contains(name.trimmingSpaces().lowercased())
    }

    /// The value ranges of every secret parameter in the query, matched without regard to case; a value
    /// runs to the next `&` that starts another parameter, or to the end.
    private static func passwordParameters(in url: String) -> [Range<String.Index>] {
        guard let question = queryStart(in: url) else { return [] }
        var pairs: [String.Index] = [url.index(after: question)]
        var index = url.index(after: question)
        while let ampersand = url[index...].firstIndex(of: "&") {
            let next = url.index(after: ampersand)
            if startsPair(url, at: next) { pairs.append(next) }
            index = next
        }
        return pairs.enumerated().compactMap { position, start in
            let end = position + 1 < pairs.count ? url.index(before: pairs[position + 1]) : url.endIndex
            let pair = url[start..<end]
            let name = pair.prefix { $0 != "=" }
            guard secretParameterNames.contains(name.trimmingSpaces().lowercased()),
                name.endIndex < pair.endIndex
            else { return nil }
            return url.index(after: name.endIndex)..<end
        }
    }
}
