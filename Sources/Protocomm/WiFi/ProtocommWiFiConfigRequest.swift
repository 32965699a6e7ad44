#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A request on `prov-config` (`WiFiConfigPayload`), before encryption.
public enum ProtocommWiFiConfigRequest: Hashable, Sendable {
    /// Ask for the station state; poll it after ``applyConfig``.
    case getStatus
    /// Store the network to join; takes effect on ``applyConfig``.
    case setConfig(ProtocommWiFiCredentials)
    /// Start joining the stored network (the device waits a second before it connects).
    case applyConfig

    /// The plaintext payload. The oneof member is always set: ESP-IDF 5.5 dereferences it unchecked.
    public func serializedBytes() -> [UInt8] {
        var payload = WireWiFiConfigPayload()
        switch self {
        case .getStatus:
            payload.msg = .typeCmdGetStatus
            payload.cmdGetStatus = WireCmdGetStatus()
        case .setConfig(let credentials):
            payload.msg = .typeCmdSetConfig
            var command = WireCmdSetConfig()
            command.ssid = Data(credentials.ssid)
            command.passphrase = Data(credentials.passphrase)
            command.bssid = Data(credentials.bssid)
            command.channel = credentials.channel
            payload.cmdSetConfig = command
        case .applyConfig:
            payload.msg = .typeCmdApplyConfig
            payload.cmdApplyConfig = WireCmdApplyConfig()
        }
        return payload.wireBytes
    }

    /// Parses a request the way the device does: by `msg` alone, except that "set config" must carry
    /// its fields. Out-of-range credentials throw the same errors as ``ProtocommWiFiCredentials``.
    public init(serializedBytes bytes: [UInt8]) throws(ProtocommError) {
        let payload = try WireWiFiConfigPayload(wireBytes: bytes)
        switch payload.msg {
        case .typeCmdGetStatus:
            self = .getStatus
        case .typeCmdSetConfig:
            guard case .cmdSetConfig(let command) = payload.payload else {
                throw .unexpectedMessage(expected: "CmdSetConfig", received: "WiFiConfigPayload without CmdSetConfig")
            }
            self = .setConfig(
                try ProtocommWiFiCredentials(
                    ssid: command.ssid.byteArray, passphrase: command.passphrase.byteArray,
                    bssid: command.bssid.byteArray, channel: command.channel))
        case .typeCmdApplyConfig:
            self = .applyConfig
        default:
            throw .unexpectedMessage(expected: "a WiFiConfigPayload command", received: "\(payload.msg)")
        }
    }

    /// Parses the device's reply and checks that it answers this request.
    public func response(from bytes: [UInt8]) throws(ProtocommError) -> ProtocommWiFiConfigResponse {
        try ProtocommWiFiConfigResponse(serializedBytes: bytes, answering: expectedResponseType)
    }

    private var expectedResponseType: WireWiFiConfigMsgType {
        switch self {
        case .getStatus: .typeRespGetStatus
        case .setConfig: .typeRespSetConfig
        case .applyConfig: .typeRespApplyConfig
        }
    }
}
