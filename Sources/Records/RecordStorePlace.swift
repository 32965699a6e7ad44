/// Where a store keeps its records, as a person reads it in a message: shown without any secret, with the
/// store's way of hiding its secrets in text its library wrote, and whether it is a file or a server, whose
/// remedies differ.
///
/// Each store says this of itself, so the port needs to know neither the backends nor their URL forms.
public struct RecordStorePlace: Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A database file on this host.
        case file
        /// A database server reached over the network.
        case server
    }

    public let kind: Kind
    /// The place without its secrets.
    public let description: String
    private let hidingSecrets: @Sendable (String) -> String

    public init(_ kind: Kind, shownAs description: String, hidingSecrets: @escaping @Sendable (String) -> String) {
        self.kind = kind
        self.description = description
        self.hidingSecrets = hidingSecrets
    }

    /// `text` with this place's secrets, if any, replaced by `****`, for messages that may quote them.
    public func redacting(_ text: String) -> String { hidingSecrets(text) }
}
