/// Why NetworkManager failed or ended an activation, in its own numbers, and what that means for
/// joining a device's hotspot.
///
/// NetworkManager reports two reason codes: the device's (`NMDeviceStateReason`, the more specific,
/// e.g. NO_SECRETS = 7) and the active connection's (`NMActiveConnectionStateReason`, for example
/// NO_SECRETS = 9). Both are kept with their source so messages can quote the right table.
public struct NMStateReason: Sendable, Equatable, CustomStringConvertible {
    /// Which of NetworkManager's two reason tables the code comes from.
    public enum Source: Sendable, Equatable {
        case device
        case activeConnection
    }

    /// What a reason means for a hotspot join, as a person would act on it.
    public enum Meaning: Sendable, Equatable {
        /// The passphrase is wrong, or the hotspot needs one and none was given.
        case wrongPassword
        /// The hotspot was not seen when associating: not in provisioning mode or out of range.
        case networkNotFound
        /// Association took too long: weak signal, or the device refused another station.
        case associationTimedOut
        /// The hotspot dropped the host during association.
        case associationDropped
        /// wpa_supplicant could not be configured or failed.
        case supplicantFailed
        /// Associated, but no address: the device's DHCP server is stuck or its pool is full.
        case noAddress
        /// Another activation or a user took the interface over.
        case interrupted
        /// The Wi-Fi device went away, became unmanaged or the host went to sleep.
        case deviceGone
        /// Anything else; the code and name say more.
        case other
    }

    public let source: Source
    public let code: UInt32

    public init(device code: UInt32) {
        source = .device
        self.code = code
    }

    public init(activeConnection code: UInt32) {
        source = .activeConnection
        self.code = code
    }

    public var meaning: Meaning {
        switch source {
        case .device: Self.deviceReasons[code]?.meaning ?? .other
        case .activeConnection: Self.activeConnectionReasons[code]?.meaning ?? .other
        }
    }

    /// NetworkManager's constant name without its prefix, such as `NO_SECRETS`.
    public var name: String {
        let table = source == .device ? Self.deviceReasons : Self.activeConnectionReasons
        return table[code]?.name ?? "UNKNOWN_\(code)"
    }

    public var description: String {
        "\(source == .device ? "device" : "connection") reason \(name) (\(code))"
    }

    /// Picks the reason that says the most: a meaningful device reason, else a meaningful connection
    /// reason, else whichever exists (the device's first).
    static func mostTelling(device: NMStateReason?, activeConnection: NMStateReason?) -> NMStateReason? {
        let candidates = [device, activeConnection].compactMap { $0 }
        return candidates.first { $0.meaning != .other } ?? candidates.first
    }
}

extension NMStateReason {
    /// `NMDeviceStateReason` codes worth a name here (nm-dbus-interface.h).
    private static let deviceReasons: [UInt32: (name: String, meaning: Meaning)] = [
        0: ("NONE", .other),
        1: ("UNKNOWN", .other),
        3: ("NOW_UNMANAGED", .deviceGone),
        4: ("CONFIG_FAILED", .other),
        5: ("IP_CONFIG_UNAVAILABLE", .noAddress),
        6: ("IP_CONFIG_EXPIRED", .noAddress),
        7: ("NO_SECRETS", .wrongPassword),
        8: ("SUPPLICANT_DISCONNECT", .associationDropped),
        9: ("SUPPLICANT_CONFIG_FAILED", .supplicantFailed),
        10: ("SUPPLICANT_FAILED", .supplicantFailed),
        11: ("SUPPLICANT_TIMEOUT", .associationTimedOut),
        15: ("DHCP_START_FAILED", .noAddress),
        16: ("DHCP_ERROR", .noAddress),
        17: ("DHCP_FAILED", .noAddress),
        36: ("REMOVED", .deviceGone),
        37: ("SLEEPING", .deviceGone),
        38: ("CONNECTION_REMOVED", .interrupted),
        39: ("USER_REQUESTED", .interrupted),
        40: ("CARRIER", .associationDropped),
        53: ("SSID_NOT_FOUND", .networkNotFound),
        60: ("NEW_ACTIVATION", .interrupted),
        64: ("IP_ADDRESS_DUPLICATE", .noAddress),
    ]

    /// `NMActiveConnectionStateReason` codes worth a name here (nm-dbus-interface.h).
    private static let activeConnectionReasons: [UInt32: (name: String, meaning: Meaning)] = [
        0: ("UNKNOWN", .other),
        1: ("NONE", .other),
        2: ("USER_DISCONNECTED", .interrupted),
        3: ("DEVICE_DISCONNECTED", .other),
        4: ("SERVICE_STOPPED", .other),
        5: ("IP_CONFIG_INVALID", .noAddress),
        6: ("CONNECT_TIMEOUT", .associationTimedOut),
        9: ("NO_SECRETS", .wrongPassword),
        10: ("LOGIN_FAILED", .wrongPassword),
        11: ("CONNECTION_REMOVED", .interrupted),
        14: ("DEVICE_REMOVED", .deviceGone),
    ]
}
