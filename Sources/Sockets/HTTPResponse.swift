/// One complete HTTP/1.x response as the device sent it.
public struct HTTPResponse: Sendable, Equatable {
    /// The protocol version from the status line, `HTTP/1.0` or `HTTP/1.1`.
    public var version: String
    /// The three-digit status code, such as 200 or 404.
    public var statusCode: Int
    /// The reason phrase, possibly empty; informational only.
    public var reasonPhrase: String
    /// The header fields in the order they arrived, repeated names kept apart.
    public var headerFields: [HTTPHeaderField]
    /// The body, exactly `Content-Length` bytes.
    public var body: [UInt8]

    /// Creates a response from its parts.
    public init(
        version: String,
        statusCode: Int,
        reasonPhrase: String,
        headerFields: [HTTPHeaderField],
        body: [UInt8]
    ) {
        self.version = version
        self.statusCode = statusCode
        self.reasonPhrase = reasonPhrase
        self.headerFields = headerFields
        self.body = body
    }

    /// The values of every field with this name, compared without regard to case.
    public func values(of name: String) -> [String] {
        let wanted = name.lowercased()
        return headerFields.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Whether the server lets the connection carry another request (RFC 9112 §9.3).
    ///
    /// HTTP/1.1 keeps it unless `Connection: close`; HTTP/1.0 closes it unless `Connection: keep-alive`.
    public var keepsConnectionOpen: Bool {
        let options = values(of: "Connection").flatMap { $0.split(separator: ",") }.map {
            $0.trimmingASCIIWhitespace().lowercased()
        }
        if options.contains("close") { return false }
        return version == "HTTP/1.1" || options.contains("keep-alive")
    }
}

/// One `name: value` header line, the value stripped of surrounding whitespace.
public struct HTTPHeaderField: Sendable, Equatable {
    /// The field name as sent; compare it without regard to case.
    public var name: String
    /// The field value; bytes above 0x7F are read as ISO-8859-1, as RFC 9110 §5.5 allows.
    public var value: String

    /// Creates a field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Substring {
    func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
