/// Why bytes from the server are not an HTTP/1.x response this client accepts.
///
/// Every case means the peer broke the protocol (or is not the protocomm server we expect); the
/// parser has no way to be misused.
public enum HTTPResponseParserError: Error, Sendable, Equatable {
    /// The first line is not `HTTP/1.x SP 3DIGIT SP reason`.
    case malformedStatusLine
    /// A version other than HTTP/1.0 or HTTP/1.1.
    case unsupportedVersion(String)
    /// A 1xx response: we never send `Expect` or `Upgrade`, and esp_http_server never sends one.
    case interimResponse(statusCode: Int)
    /// A line ended in a bare LF, or a CR appeared inside a line.
    case lineNotTerminatedByCRLF
    /// A header line that is not `token ":" value` (includes obsolete line folding).
    case malformedHeaderField
    /// The status line and header fields together exceed the limit.
    case headerSectionTooLarge(limit: Int)
    /// More header fields than the limit.
    case tooManyHeaderFields(limit: Int)
    /// A response that needs a body has no `Content-Length`; reading to end of stream is not supported.
    case missingContentLength
    /// `Content-Length` is not a plain decimal number.
    case invalidContentLength(String)
    /// Several `Content-Length` fields disagree.
    case conflictingContentLengths
    /// Any `Transfer-Encoding` (chunked included): protocomm servers always send `Content-Length`.
    case transferEncodingNotSupported(String)
    /// The declared body is larger than the limit.
    case bodyTooLarge(declared: Int, limit: Int)
    /// The stream ended inside a response.
    case truncated
}
