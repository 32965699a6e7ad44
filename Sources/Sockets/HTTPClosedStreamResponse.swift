/// Reads the one response of a connection the server closes after it (`Connection: close`), once
/// the stream has ended: framed by `Content-Length`, by chunked coding, or by the end of the stream
/// (RFC 9112 §6.3). Heads are checked as ``HTTPResponseParser`` checks them.
enum HTTPClosedStreamResponse {
    private static let headEnd: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]

    static func parse(
        _ stream: [UInt8], limits: HTTPResponseParser.Limits = .init()
    ) throws(HTTPResponseParserError) -> HTTPResponse {
        guard let headLength = firstIndex(of: headEnd, in: stream[...]) else {
            throw stream.count > limits.headerSectionBytes
                ? .headerSectionTooLarge(limit: limits.headerSectionBytes) : .truncated
        }
        guard headLength <= limits.headerSectionBytes else {
            throw .headerSectionTooLarge(limit: limits.headerSectionBytes)
        }
        // Up to and including the last field's CRLF; the empty piece after its LF is not a line.
        let lines = stream[..<(headLength + 2)].split(separator: ASCII.lineFeed, omittingEmptySubsequences: false)
            .dropLast()
        guard lines.allSatisfy({ $0.last == ASCII.carriageReturn && !$0.dropLast().contains(ASCII.carriageReturn) })
        else { throw .lineNotTerminatedByCRLF }
        var response = try HTTPResponseParser.parseStatusLine(lines[lines.startIndex].dropLast())
        guard lines.count - 1 <= limits.headerFields else { throw .tooManyHeaderFields(limit: limits.headerFields) }
        for line in lines.dropFirst() {
            response.headerFields.append(try HTTPResponseParser.parseHeaderField(line.dropLast()))
        }
        let rest = stream[(headLength + headEnd.count)...]
        response.body = try body(of: response, in: rest, limit: limits.bodyBytes)
        return response
    }

    private static func body(
        of response: HTTPResponse, in rest: ArraySlice<UInt8>, limit: Int
    ) throws(HTTPResponseParserError) -> [UInt8] {
        if response.statusCode == 204 || response.statusCode == 304 { return [] }
        if let coding = response.values(of: "Transfer-Encoding").first {
            guard coding.lowercased() == "chunked" else { throw .transferEncodingNotSupported(coding) }
            return try dechunked(rest, limit: limit)
        }
        let declared = response.values(of: "Content-Length")
        guard let first = declared.first else {
            guard rest.count <= limit else { throw .bodyTooLarge(declared: rest.count, limit: limit) }
            return Array(rest)
        }
        guard declared.allSatisfy({ $0 == first }) else { throw .conflictingContentLengths }
        guard (1...10).contains(first.utf8.count), first.utf8.allSatisfy(ASCII.isDigit), let length = Int(first) else {
            throw .invalidContentLength(first)
        }
        guard length <= limit else { throw .bodyTooLarge(declared: length, limit: limit) }
        guard rest.count >= length else { throw .truncated }
        return Array(rest.prefix(length))
    }

    /// RFC 9112 §7.1: `size [; extensions] CRLF data CRLF` until a zero size; trailers are skipped.
    private static func dechunked(_ coded: ArraySlice<UInt8>, limit: Int) throws(HTTPResponseParserError) -> [UInt8] {
        var body: [UInt8] = []
        var rest = coded
        while true {
            guard let lineEnd = firstIndex(of: [0x0D, 0x0A], in: rest) else { throw .truncated }
            let sizeField = rest[rest.startIndex..<rest.startIndex + lineEnd].prefix { $0 != 0x3B }
            guard (1...8).contains(sizeField.count), sizeField.allSatisfy({ ASCII.isHexDigit($0) }),
                let size = Int(String(decoding: sizeField, as: UTF8.self), radix: 16)
            else { throw .invalidContentLength(String(decoding: sizeField, as: UTF8.self)) }
            rest = rest.dropFirst(lineEnd + 2)
            if size == 0 { return body }
            guard body.count + size <= limit else { throw .bodyTooLarge(declared: body.count + size, limit: limit) }
            guard rest.count >= size + 2 else { throw .truncated }
            body += rest.prefix(size)
            guard rest.dropFirst(size).starts(with: [0x0D, 0x0A]) else { throw .lineNotTerminatedByCRLF }
            rest = rest.dropFirst(size + 2)
        }
    }

    /// The offset of the first occurrence of `pattern` in `bytes`, from its start.
    private static func firstIndex(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
        guard bytes.count >= pattern.count else { return nil }
        for offset in 0...(bytes.count - pattern.count)
        where bytes[(bytes.startIndex + offset)...].starts(with: pattern) {
            return offset
        }
        return nil
    }
}
