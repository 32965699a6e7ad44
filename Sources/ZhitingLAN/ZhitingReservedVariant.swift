/// What a client writes into the reserved field of its encrypted requests.
///
/// iOS 2.0.0 writes `0000`; Android 2.0.0 and iOS up to 1.5 wrote `ffff` (`reserveBytes` in
/// zhiting-tech/sa-ios-sdk's `UDPDeviceTool.swift`, `GET_DEV_INFO_PRE_Data` in the Android app).
/// Devices evidently accept both, but which one a given firmware prefers is unknown, so it is a choice.
public enum ZhitingReservedVariant: Sendable, Equatable, CaseIterable {
    /// `00 00`, as iOS 2.0.0 sends.
    case zero
    /// `ff ff`, as Android 2.0.0 and older iOS send.
    case allOnes

    /// The field's value.
    public var rawValue: UInt16 {
        switch self {
        case .zero: 0x0000
        case .allOnes: 0xFFFF
        }
    }
}

/// How a client frames its encrypted requests: reserved field and checksum convention.
public struct ZhitingRequestFraming: Sendable, Equatable {
    public var reserved: ZhitingReservedVariant
    public var checksum: ZhitingChecksumConvention

    /// Defaults to what iOS 2.0.0 sends: reserved `0000`, the session key in the checksum field.
    public init(reserved: ZhitingReservedVariant = .zero, checksum: ZhitingChecksumConvention = .sessionKey) {
        self.reserved = reserved
        self.checksum = checksum
    }
}
