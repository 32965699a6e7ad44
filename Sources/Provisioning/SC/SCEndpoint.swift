/// The SC cloud's base URL as the user gives it (`https://gz.sc.zhitingtech.com`), checked once.
public struct SCEndpoint: Sendable, Equatable {
    /// Scheme and authority without a trailing slash.
    public let baseURL: String
    /// The host name alone, which is also what devices are told to connect to (iOS strips the scheme).
    public let host: String

    /// The release SC of the 2.0.0 apps.
    public static let release = try! SCEndpoint("https://gz.sc.zhitingtech.com")

    /// Accepts `http(s)://host[:port][/]`; anything else is a usage error.
    public init(_ text: String) throws(ProvisioningError) {
        let trimmed = text.hasSuffix("/") ? String(text.dropLast()) : text
        let schemes = ["https://", "http://"]
        guard let scheme = schemes.first(where: { trimmed.lowercased().hasPrefix($0) }) else {
            throw Self.invalid(text)
        }
        let authority = trimmed.dropFirst(scheme.count)
        let host = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard !host.isEmpty, !authority.contains("/"), !authority.contains("@") else { throw Self.invalid(text) }
        baseURL = trimmed
        self.host = String(host)
    }

    /// Where the device access token comes from (iOS 2.0.0: `POST {cloudUrl}/api/v2.0.0/oauth2/access_token`).
    var accessTokenURL: String { baseURL + "/api/v2.0.0/oauth2/access_token" }

    private static func invalid(_ text: String) -> ProvisioningError {
        ProvisioningError(
            .invalidOption,
            "--sc-url \(text) is not an http(s) URL of a server.",
            hint: "Use the SC base URL alone, such as https://gz.sc.zhitingtech.com."
        )
    }
}
