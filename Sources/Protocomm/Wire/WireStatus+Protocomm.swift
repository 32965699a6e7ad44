/// Conversions between the generated `Status` enum and ``ProtocommStatus``.
extension WireStatus {
    init(_ status: ProtocommStatus) {
        self = WireStatus(rawValue: status.rawValue) ?? .UNRECOGNIZED(status.rawValue)
    }

    var protocommStatus: ProtocommStatus {
        ProtocommStatus(rawValue: rawValue)
    }

    /// Throws ``ProtocommError/failureStatus(_:)`` unless this is `Success`.
    func requireSuccess() throws(ProtocommError) {
        guard self == .success else { throw .failureStatus(protocommStatus) }
    }
}
