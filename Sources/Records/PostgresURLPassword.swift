import Foundation

/// The passwords inside a PostgreSQL URL (`postgres://user:password@host/db` or `?password=`), found
/// without a URL parser so that even a URL libpq would reject is redacted.
struct PostgresURLPassword {
    /// The passwords as written in the URL (maybe percent-encoded).
    let written: [String]

    init(_ url: String) {
        written = [Self.userInfoPassword(in: url), Self.queryPassword(in: url)].compactMap { $0 }
    }

    /// `text` with every occurrence of a password, as written and percent-decoded, replaced by `****`.
    func redacted(_ text: String) -> String {
        let forms = written.flatMap { [$0, $0.removingPercentEncoding].compactMap { $0 } }.filter { !$0.isEmpty }
        return forms.sorted { $0.count > $1.count }.reduce(text) { $0.replacingOccurrences(of: $1, with: "****") }
    }

    private static func userInfoPassword(in url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        // The user info ends at the last `@` before the path or query: a password may hold `@` only
        // percent-encoded, but people do write it raw.
        let authority = url[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return nil
        }
        return String(authority[authority.index(after: colon)..<at])
    }

    private static func queryPassword(in url: String) -> String? {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        let pair = query.split(separator: "&").first { $0.hasPrefix("password=") }
        return pair.map { String($0.dropFirst("password=".count)) }
    }
}
