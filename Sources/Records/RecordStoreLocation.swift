/// Where the records live, as `--db` or `ZTPROV_DB` names it: a PostgreSQL URL or an SQLite file.
///
/// A PostgreSQL URL may hold a password, so ``description`` never shows it; logs and error messages
/// print the location through it.
public enum RecordStoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite file, created with its parent directories on first use.
    case sqlite(path: String)
    /// A PostgreSQL server, as a `postgres://` or `postgresql://` URL libpq understands.
    case postgres(url: String)

    /// The environment variable that overrides the default location.
    public static let environmentVariable = "ZTPROV_DB"

    /// Reads `--db` text: a `postgres://`/`postgresql://` URL, `sqlite:PATH`, or a plain path.
    public init(_ text: String) {
        if text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") {
            self = .postgres(url: text)
        } else if text.hasPrefix("sqlite:") {
            self = .sqlite(path: String(text.dropFirst("sqlite:".count)))
        } else {
            self = .sqlite(path: text)
        }
    }

    /// Where records go when `--db` is not given: `$ZTPROV_DB`, else the XDG data directory.
    public static func defaultLocation(environment: [String: String], homeDirectory: String) -> RecordStoreLocation {
        if let configured = environment[environmentVariable], !configured.isEmpty {
            return RecordStoreLocation(configured)
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        return .sqlite(path: (dataHome ?? homeDirectory + "/.local/share") + "/ztprov/records.sqlite")
    }

    /// The location with any password replaced by `****`.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let url): PostgresURLPassword(url).redacted(url)
        }
    }

    /// `text` with this location's password, if any, replaced by `****`, for messages that may quote it.
    public func redacting(_ text: String) -> String {
        switch self {
        case .sqlite: text
        case .postgres(let url): PostgresURLPassword(url).redacted(text)
        }
    }
}
