/// The SC cloud's base URL as the user gives it (`https://gz.sc.zhitingtech.com`), checked once.
public struct SCEndpoint: Sendable, Equatable {
    /// Scheme and authority without a trailing slash.
    public let baseURL: String
    /// The host name alone, which is also what devices are told to connect to (iOS strips the scheme).
    public let host: String

    /// The release SC of the 2.0.0 apps.
    public static let release = try! SCEndpoint("https://gz.sc.zhitingtech.com")

    /// Accepts `http(s)://host[:port][/]` with a port of 1 to 65535; anything else is a usage error.
    public init(_ text: String) throws(ProvisioningError) {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let schemes = ["https://", "http://"]
        guard let scheme = schemes.first(where: { trimmed.lowercased().hasPrefix($0) }) else {
            throw Self.invalid()
        }
        let authority = trimmed.dropFirst(scheme.count)
        let hostAndPort = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = hostAndPort[0]
        guard !host.isEmpty, !authority.contains("/"), !authority.contains("@"), !authority.contains("?"),
            !authority.contains("#")
        else { throw Self.invalid() }
        if hostAndPort.count == 2 {
            let port = hostAndPort[1]
            guard !port.isEmpty, port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }),
                let number = Int(port), (1...65535).contains(number)
            else { throw Self.invalid() }
        }
        baseURL = trimmed
        self.host = String(host)
    }

    /// True for `http://`: a session cookie sent there crosses the network readable by anyone on the path.
    public var isCleartext: Bool { baseURL.lowercased().hasPrefix("http://") }

    /// Where the device access token comes from (iOS 2.0.0: `POST {cloudUrl}/api/v2.0.0/oauth2/access_token`).
    var accessTokenURL: String { baseURL + "/api/v2.0.0/oauth2/access_token" }

    /// The message never quotes the text: a `user:password@` in it must not reach the terminal.
    private static func invalid() -> ProvisioningError {
        ProvisioningError(
            .invalidOption,
            "--sc-url is not an http(s) URL of a server (scheme, host and optional port only).",
            hint: "Use the SC base URL alone, such as https://gz.sc.zhitingtech.com."
        )
    }
}
