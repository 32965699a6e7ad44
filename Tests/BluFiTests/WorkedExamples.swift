import Foundation
import TestSupport

/// The worked examples in `Vectors/worked-examples.json` (which names its source).
struct WorkedExamples: Decodable {
    struct Checksum: Decodable {
        let id: Int
        let comment: String
        let input: String
        let crc: String
    }

    struct PlainFrames: Decodable {
        let getVersion, setOperationModeStationWithAck, deviceAckOfSequence1, deviceVersion13: String
    }

    struct Fragmentation: Decodable {
        let firstSequence: UInt8
        let content: String
        let frames: [String]
    }

    struct V1: Decodable {
        struct Frames: Decodable {
            let negotiationLength, negotiationDataFirstHeader, negotiationDataLastHeader: String
            let negotiationDataLastContentPrefix, deviceNegotiationHeader, setSecurityMode, setOperationMode: String
            let staSSID, staPassword, connectAP, getWiFiStatus, deviceWiFiReport: String
        }
        let prime, phonePrivate, devicePrivate, phonePublic, devicePublic, key: String
        let ssid, password, bssid: String
        let frames: Frames
        let wifiReportPlaintext: String
    }

    /// A key exchange printed with its two private keys and the start of the shared secret.
    protocol KeyExchange {
        var phonePrivate: String { get }
        var devicePrivate: String { get }
        var secretPrefix: String { get }
    }

    struct LeadingZero: Decodable, KeyExchange {
        let phonePrivate, devicePrivate, secretPrefix, key: String
        let keyFromPaddedSecret: String?
        let keyFromStrippedSecret: String?
    }

    struct V2: Decodable, KeyExchange {
        struct Frames: Decodable {
            let setOperationMode, staSSID, staPassword, deviceWiFiReport: String
        }
        let phonePrivate, devicePrivate, sha256OfPhonePublic, sha256OfDevicePublic, secretPrefix: String
        let key, phoneToDeviceIV, deviceToPhoneIV, negotiationLength: String
        let framesAtPrintedSequences: Frames
    }

    let checksums: [Checksum]
    let plainFrames: PlainFrames
    let fragmentationAtMTU23: Fragmentation
    let v1: V1
    let v1LeadingZero: LeadingZero
    let v2: V2
    let v2LeadingZero: LeadingZero

    static func load() throws -> WorkedExamples {
        try VectorFile.load(WorkedExamples.self, named: "worked-examples", in: .module)
    }
}

/// Private exponents as the sessions draw them: the vectors' 32-byte value, left-padded with zeros to
/// the prime's width (the padding does not change the number).
func scriptedPrivateKey(_ hex: String, width: Int) -> [UInt8] {
    let value = [UInt8](hex: hex)
    return [UInt8](repeating: 0, count: width - value.count) + value
}
