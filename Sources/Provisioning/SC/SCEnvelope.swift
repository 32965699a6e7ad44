import FoundationEssentials

/// The response envelope of every SC and SA JSON API: `{"status":0,"reason":"","data":{…}}`.
struct SCEnvelope: Decodable {
    var status: Int?
    var reason: String?
    var data: TokenData?

    /// The `data` of the access-token call; Android declares `expires_in` a string, so both are read.
    struct TokenData: Decodable {
        var accessToken: String?
        var expiresIn: Int?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try? container.decodeIfPresent(String.self, forKey: .accessToken)
            expiresIn =
                (try? container.decodeIfPresent(Int.self, forKey: .expiresIn))
                ?? (try? container.decodeIfPresent(String.self, forKey: .expiresIn)).flatMap { $0.flatMap { Int($0) } }
        }
    }
}
