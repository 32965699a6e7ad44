/// What a handler answers: a status, a content type and a whole body (the server's answers are small).
public struct HTTPServerResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String
    public var body: [UInt8]
    /// Further header fields (`Cache-Control`).
    public var headers: [String: String]

    public init(status: Int = 200, contentType: String, body: String, headers: [String: String] = [:]) {
        self.status = status
        self.contentType = contentType
        self.body = Array(body.utf8)
        self.headers = headers
    }
}
