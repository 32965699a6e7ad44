import PostgresRecordStore
import Records
import SQLiteRecordStore

/// Where the records live, as `--db` or `ZTPROV_DB` names it: a PostgreSQL URL or an SQLite file.
///
/// A PostgreSQL URL may hold a password, so ``description`` never shows it; logs and error messages
/// print the location through it.
enum RecordStoreLocation: Sendable, Equatable, CustomStringConvertible {
    /// An SQLite file, created with its parent directories on first use.
    case sqlite(path: String)
    /// A PostgreSQL server, as a `postgres://` or `postgresql://` URL libpq understands.
    case postgres(url: String)

    /// The environment variable that overrides the default location.
    static let environmentVariable = "ZTPROV_DB"

    /// Why `--db` text names no place records can be kept.
    enum Refusal: Error, Sendable, Equatable {
        /// Nothing, or `sqlite:` with nothing after it: SQLite would use a temporary database that
        /// vanishes with the process, and every record with it.
        case empty
        /// SQLite's name for a database in memory (`:memory:`): every record would vanish at exit.
        case inMemory
        /// A URL scheme ztprov does not know (a misspelt `postgres://`, say); taken as a file name it
        /// would put the URL, password and all, into the file system.
        case unknownScheme
        /// libpq's `key=value` form (`host=db password=…`): taken as a file name it would put the
        /// password into the file system; ztprov takes PostgreSQL locations as URLs only.
        case connectionString
    }

    /// Reads `--db` text: a `postgres://`/`postgresql://` URL (scheme in any case), `sqlite:PATH`, or a
    /// plain path that does not start like a URL scheme.
    init(parsing text: String) throws(Refusal) {
        let scheme = Self.scheme(of: text)?.lowercased()
        switch scheme {
        case "postgres", "postgresql":
            guard text.dropFirst(scheme!.count).hasPrefix("://") else { throw .unknownScheme }
            self = .postgres(url: PostgresURLPassword.encodingSecrets(scheme! + text.dropFirst(scheme!.count)))
        case "sqlite":
            self = .sqlite(path: try Self.sqlitePath(String(text.dropFirst("sqlite:".count))))
        case nil:
            guard !Self.isConnectionString(text) else { throw .connectionString }
            self = .sqlite(path: try Self.sqlitePath(text))
        default:
            throw .unknownScheme
        }
    }

    /// A path SQLite keeps on disk: not empty (a temporary database) and not `:memory:`.
    private static func sqlitePath(_ path: String) throws(Refusal) -> String {
        guard !path.isEmpty else { throw .empty }
        guard path != ":memory:" else { throw .inMemory }
        return path
    }

    /// Whether `text` has a libpq `name=` pair (`host=db`, `password = x`) at its start or after a space.
    private static func isConnectionString(_ text: String) -> Bool {
        text.split(separator: "=", omittingEmptySubsequences: false).dropLast().contains { before in
            let name = before.split(separator: " ").last.map(String.init) ?? ""
            return PostgresURLPassword.parameterNames.contains(name.lowercased())
        }
    }

    /// The RFC 3986 scheme `text` starts with (letters, digits, `+ - .`, then `:`), if any.
    private static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), let first = text.first, first.isASCII, first.isLetter else {
            return nil
        }
        let name = text[..<colon]
        let allowed = name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
        return allowed ? String(name) : nil
    }

    /// Where records go when `--db` is not given: `$ZTPROV_DB`, else the XDG data directory.
    static func defaultLocation(
        environment: [String: String], homeDirectory: String
    ) throws(Refusal) -> RecordStoreLocation {
        if let configured = environment[environmentVariable], !configured.isEmpty {
            return try RecordStoreLocation(parsing: configured)
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        return .sqlite(path: (dataHome ?? homeDirectory + "/.local/share") + "/ztprov/records.sqlite")
    }

    /// The place as the store shows it, so logs and messages never show the password.
    var place: RecordStorePlace {
        switch self {
        case .sqlite(let path): .sqlite(path: path)
        case .postgres(let url): .postgres(url: url)
        }
    }

    var description: String { place.description }
}
