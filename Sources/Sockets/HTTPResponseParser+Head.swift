/// The status line, the header fields and the framing decision, per RFC 9112 §4–§6.
extension HTTPResponseParser {
    private static let versionPrefix = Array("HTTP/".utf8)

    /// Refuses a stream whose first bytes cannot start a status line, before a whole line arrives.
    static func checkStatusLinePrefix(_ bytes: ArraySlice<UInt8>) throws(HTTPResponseParserError) {
        guard zip(bytes, versionPrefix).allSatisfy({ $0 == $1 }) else { throw .malformedStatusLine }
    }

    /// Parses `HTTP-version SP status-code SP [reason-phrase]` into a response without fields or body.
    ///
    /// A missing space after the code is tolerated: the reason phrase carries nothing we use.
    static func parseStatusLine(_ line: ArraySlice<UInt8>) throws(HTTPResponseParserError) -> HTTPResponse {
        let bytes = Array(line)
        guard bytes.count >= 12, bytes.starts(with: versionPrefix), ASCII.isDigit(bytes[5]), bytes[6] == ASCII.period,
            ASCII.isDigit(bytes[7]), bytes[8] == ASCII.space, bytes.count == 12 || bytes[12] == ASCII.space
        else { throw .malformedStatusLine }
        let version = String(decoding: bytes[0..<8], as: UTF8.self)
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else { throw .unsupportedVersion(version) }
        let codeDigits = bytes[9...11]
        guard codeDigits.allSatisfy(ASCII.isDigit), let code = Int(String(decoding: codeDigits, as: UTF8.self)),
            (100...599).contains(code)
        else { throw .malformedStatusLine }
        guard code >= 200 else { throw .interimResponse(statusCode: code) }
        let reason = bytes.dropFirst(13)
        guard reason.allSatisfy(ASCII.isFieldValueByte) else { throw .malformedStatusLine }
        return HTTPResponse(
            version: version,
            statusCode: code,
            reasonPhrase: ASCII.latin1String(reason),
            headerFields: [],
            body: []
        )
    }

    /// Parses `field-name ":" OWS field-value OWS`; no space before the colon, no line folding.
    static func parseHeaderField(_ line: ArraySlice<UInt8>) throws(HTTPResponseParserError) -> HTTPHeaderField {
        guard let colon = line.firstIndex(of: ASCII.colon), colon > line.startIndex else { throw .malformedHeaderField }
        let name = line[..<colon]
        let value = line[(colon + 1)...]
        guard name.allSatisfy(ASCII.isTokenByte), value.allSatisfy(ASCII.isFieldValueByte) else {
            throw .malformedHeaderField
        }
        return HTTPHeaderField(
            name: String(decoding: name, as: UTF8.self),
            value: String(ASCII.latin1String(value)[...].trimmingASCIIWhitespace())
        )
    }

    /// How many body bytes follow this head; refuses every framing but `Content-Length`.
    func bodyLength(of response: HTTPResponse) throws(HTTPResponseParserError) -> Int {
        if let coding = response.values(of: "Transfer-Encoding").first {
            throw .transferEncodingNotSupported(coding)
        }
        // RFC 9110 §6.4.1: these never have content, whatever Content-Length says.
        if response.statusCode == 204 || response.statusCode == 304 { return 0 }
        let declared = response.values(of: "Content-Length")
        guard let first = declared.first else { throw .missingContentLength }
        guard declared.allSatisfy({ $0 == first }) else { throw .conflictingContentLengths }
        guard (1...10).contains(first.utf8.count), first.utf8.allSatisfy(ASCII.isDigit), let length = Int(first) else {
            throw .invalidContentLength(first)
        }
        guard length <= limits.bodyBytes else { throw .bodyTooLarge(declared: length, limit: limits.bodyBytes) }
        return length
    }
}

/// Byte classes from RFC 9110 §5.6.2 (token) and §5.5 (field value).
enum ASCII {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let tab: UInt8 = 0x09
    static let colon: UInt8 = 0x3A
    static let period: UInt8 = 0x2E

    private static let tokenSymbols = Set("!#$%&'*+-.^_`|~".utf8)

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || tokenSymbols.contains(byte)
    }

    /// Visible characters, space, tab and obs-text; no other control bytes.
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || (0x21...0x7E).contains(byte) || byte >= 0x80
    }

    /// Reads bytes as ISO-8859-1, where every byte is the code point of the same value.
    static func latin1String(_ bytes: some Sequence<UInt8>) -> String {
        String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
    }
}
