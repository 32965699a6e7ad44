import Transports

/// Where an `http://` or `https://` URL points: scheme, host, port, and the path and query to request.
struct HTTPRequestTarget: Equatable {
    let isSecure: Bool
    /// A DNS name or an address literal (IPv6 without its brackets).
    let host: String
    let port: UInt16
    /// `/path?query`, never empty; the fragment is not sent.
    let pathAndQuery: String

    /// The `Host` field: the authority as the URL gave it, brackets and port included.
    let authority: String

    init(_ url: String) throws(HTTPExchangeError) {
        let refused = HTTPExchangeError(kind: .other, detail: "not an http(s) URL: \(url)")
        let lowered = url.lowercased()
        let isSecure = lowered.hasPrefix("https://")
        guard isSecure || lowered.hasPrefix("http://") else { throw refused }
        let afterScheme = url.dropFirst(isSecure ? 8 : 7)
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let rest = afterScheme[authorityEnd...].prefix { $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@"),
            url.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0.asciiValue.map { $0 >= 0x21 && $0 < 0x7F } == true })
        else { throw refused }
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw refused }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw refused }
            portText = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
        }
        let port: UInt16
        if let portText {
            guard (1...5).contains(portText.count), portText.allSatisfy(\.isNumber), let value = UInt16(portText),
                value > 0
            else { throw refused }
            port = value
        } else {
            port = isSecure ? 443 : 80
        }
        guard !host.isEmpty else { throw refused }
        self.isSecure = isSecure
        self.host = String(host)
        self.port = port
        self.authority = String(authority)
        self.pathAndQuery = rest.hasPrefix("/") ? String(rest) : "/" + rest
    }
}
