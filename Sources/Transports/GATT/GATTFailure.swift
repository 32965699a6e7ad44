/// A Bluetooth stack's error as a GATT user needs to see it: which kind of trouble, so a protocol can
/// react (pair, give up, report a lost link) without knowing the stack. The error's own description
/// keeps the stack's words.
public protocol GATTFailure: Error {
    /// The kind of trouble.
    var gattFailureKind: GATTFailureKind { get }
}

/// The kinds of trouble a GATT read or write runs into.
public enum GATTFailureKind: Sendable, Equatable, CaseIterable {
    /// The link dropped, or the attribute went away with it.
    case linkLost
    /// The peer refuses the attribute until the link is encrypted or the devices are paired
    /// (ATT errors 0x05, 0x08, 0x0C, 0x0F).
    case insufficientSecurity
    /// The peer refuses the operation on this attribute for good (ATT read or write not permitted).
    case notPermitted
    /// The value is too long, or the offset out of range, for the attribute.
    case invalidValue
    /// The peer's application refused the value it was given (ATT Invalid PDU 0x04, or an application
    /// error 0x80–0x9F).
    case rejectedByPeer
    /// No answer before the stack's deadline.
    case timedOut
    /// Another failure; the description says what.
    case other
}
