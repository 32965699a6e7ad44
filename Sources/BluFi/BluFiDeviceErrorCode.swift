/// The one-byte payload of an ERROR frame (`esp_blufi_error_state_t` in ESP-IDF's `esp_blufi_api.h`).
public struct BluFiDeviceErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue
    }

    /// A frame's sequence number was not the one expected: an earlier frame was lost or rejected.
    public static let sequence = BluFiDeviceErrorCode(rawValue: 0)
    /// CRC mismatch, usually garbage from decrypting with the wrong key.
    public static let checksum = BluFiDeviceErrorCode(rawValue: 1)
    /// An encrypted frame arrived without a key, or decryption failed.
    public static let decrypt = BluFiDeviceErrorCode(rawValue: 2)
    /// The device could not encrypt its own frame.
    public static let encrypt = BluFiDeviceErrorCode(rawValue: 3)
    /// Negotiation before the firmware set up its security context (or it has none).
    public static let initSecurity = BluFiDeviceErrorCode(rawValue: 4)
    /// Allocation or key generation failed.
    public static let dhMalloc = BluFiDeviceErrorCode(rawValue: 5)
    /// Bad negotiation lengths, a key of the wrong size, or a failed key agreement.
    public static let dhParameter = BluFiDeviceErrorCode(rawValue: 6)
    /// V1: mbedTLS could not read p, g or the public key.
    public static let readParameter = BluFiDeviceErrorCode(rawValue: 7)
    /// V1: mbedTLS could not make the device's public key.
    public static let makePublic = BluFiDeviceErrorCode(rawValue: 8)
    /// A frame or field of the wrong length: exact-length check, fragments, SSID or password too long.
    public static let dataFormat = BluFiDeviceErrorCode(rawValue: 9)
    /// V1: MD5 failed.
    public static let calculateMD5 = BluFiDeviceErrorCode(rawValue: 10)
    /// The Wi-Fi scan could not start.
    public static let wifiScan = BluFiDeviceErrorCode(rawValue: 11)
    /// A new fragmented message started while another was still being reassembled.
    public static let messageState = BluFiDeviceErrorCode(rawValue: 12)
    /// V2: SHA-256 failed.
    public static let calculateSHA256 = BluFiDeviceErrorCode(rawValue: 13)

    public var description: String {
        let names = [
            "SEQUENCE_ERROR", "CHECKSUM_ERROR", "DECRYPT_ERROR", "ENCRYPT_ERROR", "INIT_SECURITY_ERROR",
            "DH_MALLOC_ERROR", "DH_PARAM_ERROR", "READ_PARAM_ERROR", "MAKE_PUBLIC_ERROR", "DATA_FORMAT_ERROR",
            "CALC_MD5_ERROR", "WIFI_SCAN_FAIL", "MSG_STATE_ERROR", "CALC_SHA_256_ERROR",
        ]
        return Int(rawValue) < names.count ? names[Int(rawValue)] : "error \(rawValue)"
    }
}
