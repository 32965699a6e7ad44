/// Something a scan says about the network that does not stop the run but may make the join fail, with a
/// stable code (shown as `warning[CODE]`, and `code` in the JSON `warning` event).
public struct NetworkWarning: Sendable, Equatable {
    public enum Code: String, Sendable {
        /// The network is heard only on 5 or 6 GHz; every ESP32 but the ESP32-C5 is 2.4 GHz only.
        case outside2_4GHz = "network.5ghz-only"
        /// The network takes WPA3 (SAE) only, which older firmware and chips do not support.
        case wpa3Only = "network.wpa3-only"
    }

    public let code: Code
    public let message: String
}
