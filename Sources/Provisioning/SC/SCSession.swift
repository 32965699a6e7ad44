/// The user's SC login, as the `Cookie` header that proves it.
///
/// The session file may hold the bare cookie value, `_session_=value` (several pairs separated by
/// `; ` are kept as they are), or a whole `Cookie: …` line copied from a browser.
public struct SCSession: Sendable, Equatable {
    /// The header value; a secret.
    let cookieHeader: Secret

    /// The cookie name the Zhiting services use (a hint from zhiting-nas `ScCookieKey`).
    static let defaultCookieName = "_session_"

    public init(_ secret: Secret) throws(ProvisioningError) {
        var text = Substring(secret.revealed()).trimmingWhitespace
        if text.lowercased().hasPrefix("cookie:") {
            text = text.dropFirst("cookie:".count).trimmingWhitespace
        }
        guard !text.isEmpty else {
            throw ProvisioningError(
                .secretMissing,
                "The SC session file is empty.",
                hint: "Save the `_session_` cookie of a logged-in SC session into the file given to --sc-session-file."
            )
        }
        cookieHeader = Secret(text.contains("=") ? String(text) : "\(Self.defaultCookieName)=\(text)")
    }
}

extension Substring {
    fileprivate var trimmingWhitespace: Substring {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return self[first...last]
    }
}
