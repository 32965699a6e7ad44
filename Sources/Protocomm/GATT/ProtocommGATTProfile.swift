/// How protocomm's BLE transport (`protocomm_ble`, used by ESP-IDF's provisioning managers) lays its
/// endpoints out in GATT: one primary service with a 128-bit UUID that the device advertises, one
/// characteristic per endpoint, named by its Characteristic User Description (0x2901).
///
/// Each exchange writes the request to the endpoint's characteristic (with response; long values as
/// prepare/execute writes) and then reads the reply from the same characteristic (long values with
/// Read Blob). Firmware that exposes no user descriptions is reached through the 16-bit endpoint
/// numbers, placed in bytes 12–13 of the service UUID.
public enum ProtocommGATTProfile {
    /// The provisioning service of ESP-IDF's examples and of `network_provisioning`'s default scheme
    /// configuration; firmware may choose its own.
    public static let defaultServiceUUID = "021a9004-0382-4aea-bff4-6b3f1c5adfb4"

    /// The 16-bit numbers the managers give the standard endpoints; custom endpoints count up from
    /// `0xFF54` in the order the application registers them.
    public static let endpointNumbers: [String: UInt16] = [
        "prov-ctrl": 0xFF4F, "prov-scan": 0xFF50, "prov-session": 0xFF51, "prov-config": 0xFF52,
        "proto-ver": 0xFF53,
    ]

    /// The endpoints every provisioning device has; a service whose descriptions name all of them is
    /// a protocomm service.
    public static let requiredEndpoints = ["proto-ver", "prov-session", "prov-config"]

    /// The longest endpoint name a user description may carry; longer text is not an endpoint name.
    public static let maximumNameLength = 64

    /// The characteristic UUID for endpoint `number` under `serviceUUID`: the service UUID (lower-case
    /// text form) with its bytes 12–13, the digits 5–8 of the text, replaced by the number. `nil` when
    /// `serviceUUID` is not a 128-bit UUID in text form.
    public static func characteristicUUID(number: UInt16, serviceUUID: String) -> String? {
        let text = Array(serviceUUID.lowercased().utf8)
        guard text.count == 36, text[8] == UInt8(ascii: "-") else { return nil }
        let digits = Array(String(number, radix: 16).utf8)
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: 4 - digits.count) + digits
        return String(decoding: text[0..<4] + padded + text[8...], as: UTF8.self)
    }

    /// The endpoint name a 0x2901 value carries: UTF-8 text, compared in lower case as esp_prov does;
    /// `nil` when the value is empty, too long, not UTF-8 or holds control characters.
    public static func endpointName(userDescription value: [UInt8]) -> String? {
        var bytes = value[...]
        // Some stacks store the description with its C terminator.
        while bytes.last == 0 { bytes = bytes.dropLast() }
        guard (1...maximumNameLength).contains(bytes.count),
            let text = String(validating: bytes, as: UTF8.self),
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F })
        else { return nil }
        return text.lowercased()
    }
}
