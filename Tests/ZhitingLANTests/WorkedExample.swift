import Foundation
import TestSupport
import ZhitingLAN

/// The worked example in `Vectors/worked-example.json` (which names its source), loaded once.
struct WorkedExample: Decodable {
    var source: String
    var deviceID: String
    var sessionKey: String
    var token: String
    var getInfoPlaintext: String
    var getInfoCiphertext: String
    var getInfoRequestReservedZero: String
    var getInfoRequestReservedOnes: String
    var getInfoPacketDigestChecksum: String
    var helloRequest: String
    var tokenRequest: String
    var tokenReply: String
    var smartAssistantHelloReply: String
    var smartAssistantModel: String
    var setServerPlaintextIOS: String

    static let shared: WorkedExample = {
        do {
            return try VectorFile.load(WorkedExample.self, named: "worked-example", in: .module)
        } catch {
            fatalError("Vectors/worked-example.json: \(error)")
        }
    }()

    var id: ZhitingDeviceID { ZhitingDeviceID(deviceID)! }
    var key: ZhitingSessionKey { try! ZhitingSessionKey(sessionKey) }
    var tokenValue: ZhitingToken { ZhitingToken(bytes: [UInt8](hex: token))! }
}
