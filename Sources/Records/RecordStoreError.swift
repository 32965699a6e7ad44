/// Why the record store failed, in the database's own words; the command maps it to `records.*` codes.
public struct RecordStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// The database could not be opened or reached (path, permissions, server down, bad URL).
        case unavailable
        /// The schema is newer than this ztprov understands, or not ours.
        case incompatibleSchema
        /// A statement failed.
        case failed
    }

    public let kind: Kind
    /// The database's message, e.g. "unable to open database file".
    public let detail: String

    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { detail }
}
