/// A Wi-Fi password, proof of possession or token that must never reach output, logs or records.
///
/// Every textual form (`description`, `debugDescription`, string interpolation, `dump`) prints
/// `<redacted>`; the value leaves only through ``revealed()``, at the point where a protocol needs it.
public struct Secret: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The secret's text, for the protocol step that sends it and nothing else.
    public func revealed() -> String { value }

    public var isEmpty: Bool { value.isEmpty }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "Secret(<redacted>)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
