/// The security 2 nonce: one fixed value (patch 0) or session id ‖ counter (patch 1).
enum GCMNonce: Sendable, Equatable {
    /// Patch 0: the device's 16 random bytes, reused for every message in both directions.
    case fixed([UInt8])
    /// Patch 1: the first 8 bytes of the device nonce, then a 32-bit big-endian counter that
    /// starts at 1 and advances after every GCM operation.
    case counter(sessionID: [UInt8], next: UInt32)

    static let sessionIDLength = 8

    /// Builds the nonce state a patch level derives from the device's `device_nonce`.
    init(patch: ProtocommSecurity2Patch, deviceNonce: [UInt8]) throws(ProtocommError) {
        guard deviceNonce.count == patch.deviceNonceLength else {
            throw .invalidLength(field: "device_nonce", length: deviceNonce.count)
        }
        switch patch {
        case .fixedNonce: self = .fixed(deviceNonce)
        case .counterNonce: self = .counter(sessionID: Array(deviceNonce.prefix(Self.sessionIDLength)), next: 1)
        }
    }

    /// The IV for the next GCM operation; the counter never wraps back to 0 (the device refuses that too).
    mutating func next() throws(ProtocommError) -> [UInt8] {
        switch self {
        case .fixed(let nonce):
            return nonce
        case .counter(let sessionID, let counter):
            guard counter != 0 else { throw .nonceCounterExhausted }
            self = .counter(sessionID: sessionID, next: counter &+ 1)
            return sessionID + withUnsafeBytes(of: counter.bigEndian, Array.init)
        }
    }
}
