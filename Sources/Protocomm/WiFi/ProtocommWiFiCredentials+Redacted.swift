/// The passphrase never reaches a log through `print`, interpolation, `String(reflecting:)` or `dump`.
extension ProtocommWiFiCredentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String {
        let ssidText = String(validating: ssid, as: UTF8.self) ?? ssid.map { String($0, radix: 16) }.joined()
        return "Wi-Fi \"\(ssidText)\" (passphrase \(passphrase.isEmpty ? "empty" : "redacted"))"
    }

    public var debugDescription: String { description }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
