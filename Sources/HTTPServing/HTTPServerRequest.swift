/// One request as a handler sees it: the method and the target, split into path and query.
public struct HTTPServerRequest: Sendable, Equatable {
    public var method: String
    /// The target's path, without the query (`/metrics`).
    public var path: String
    /// The query's `name=value` pairs, as sent (no percent-decoding: the server's own links need none).
    public var query: [String: String]

    public init(method: String, target: String) {
        self.method = method
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        path = String(parts.first ?? "")
        var query: [String: String] = [:]
        for pair in parts.dropFirst().first?.split(separator: "&") ?? [] {
            let field = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            query[String(field[0])] = field.count > 1 ? String(field[1]) : ""
        }
        self.query = query
    }
}
