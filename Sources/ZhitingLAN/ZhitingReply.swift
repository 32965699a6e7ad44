import FoundationEssentials

/// The parts of a JSON-RPC reply every method shares: `{"id":n,"result":…}` or `{"id":n,"error":…}`.
///
/// No Zhiting source defines an error reply; the miIO shape `{"code","message"}` is accepted as an
/// assumption (it is what python-miio's `_handle_error` reads).
struct ZhitingReply<Result: Decodable>: Decodable {
    var id: Int?
    var result: Result?
    var error: ZhitingReplyError?

    enum CodingKeys: String, CodingKey {
        case id, result, error
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = container.decodeLenientInteger(forKey: .id)
        result = try? container.decodeIfPresent(Result.self, forKey: .result)
        error = try? container.decodeIfPresent(ZhitingReplyError.self, forKey: .error)
    }

    /// Decodes `json`; nil when it is not a JSON object.
    static func decode(_ json: [UInt8]) -> ZhitingReply? {
        try? JSONDecoder().decode(ZhitingReply.self, from: Data(json))
    }
}

/// The `error` member of a reply, miIO style.
struct ZhitingReplyError: Decodable {
    var code: Int?
    var message: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = container.decodeLenientInteger(forKey: .code)
        message = try? container.decodeIfPresent(String.self, forKey: .message)
    }

    enum CodingKeys: String, CodingKey {
        case code, message
    }
}
