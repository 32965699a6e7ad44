/// MeshCoP TLV types of an operational dataset whose value has a fixed size (Thread 1.3 specification,
/// section 8.10; OpenThread `meshcop_tlvs.hpp`). Other types are passed through unchecked.
enum ThreadDatasetTLV: UInt8 {
    case channel = 0
    case panID = 1
    case extendedPANID = 2
    case networkName = 3
    case pskc = 4
    case networkKey = 5
    case meshLocalPrefix = 7
    case securityPolicy = 12
    case activeTimestamp = 14
    case pendingTimestamp = 51
    case delayTimer = 52

    /// The value lengths the specification allows.
    var allowedLengths: ClosedRange<Int> {
        switch self {
        case .channel: 3...3
        case .panID: 2...2
        case .extendedPANID: 8...8
        case .networkName: 1...16
        case .pskc, .networkKey: 16...16
        case .meshLocalPrefix, .activeTimestamp, .pendingTimestamp: 8...8
        case .securityPolicy: 3...4
        case .delayTimer: 4...4
        }
    }
}
