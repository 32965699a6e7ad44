import CLibPQ
import Foundation
import Records

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection; used only from its store's executor, which is why it needs no lock.
///
/// Every value travels as a text parameter of `PQexecParams`, never inside the SQL text.
final class LibPQConnection {
    private var handle: OpaquePointer?

    /// Connects with `url`, which libpq parses; `connectTimeout` applies unless the URL sets its own.
    func connect(url: String, connectTimeout: Duration) throws(RecordStoreError) {
        // With expand_dbname the URL's own settings override the ones listed before it.
        let settings = [
            ("connect_timeout", String(max(2, connectTimeout.components.seconds))), ("application_name", "ztprov"),
            ("dbname", url),
        ]
        let keywords = settings.map { strdup($0.0) } + [nil]
        let values = settings.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        guard
            let connection = PQconnectdbParams(keywords.map { UnsafePointer($0) }, values.map { UnsafePointer($0) }, 1)
        else { throw RecordStoreError(.unavailable, "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let detail = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            throw RecordStoreError(.unavailable, detail)
        }
        handle = connection
        // libpq prints server notices to stderr by default; the tool decides what it prints.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// Runs `sql` with `parameters` as $1, $2, … and returns the rows as text (nil for NULL).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(RecordStoreError) -> [[String?]] {
        guard let handle else { throw RecordStoreError(.unavailable, "not connected") }
        // A server restart between two attempts breaks the connection; one reset brings it back.
        if PQstatus(handle) != CONNECTION_OK { PQreset(handle) }
        let values = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { values.forEach { free($0) } }
        let result = PQexecParams(
            handle, sql, Int32(values.count), nil, values.map { UnsafePointer($0) }, nil, nil, 0)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return []
        case PGRES_TUPLES_OK: return Self.rows(of: result)
        default: throw error(result, on: handle)
        }
    }

    private static func rows(of result: OpaquePointer?) -> [[String?]] {
        (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// The error for a failed statement: a lost connection or a refused login or table is
    /// `.unavailable`, anything else `.failed`.
    private func error(_ result: OpaquePointer?, on handle: OpaquePointer) -> RecordStoreError {
        let detail = Self.message(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(handle))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        let unreachable = PQstatus(handle) != CONNECTION_OK || state.map(Self.isAccessProblem) ?? true
        return RecordStoreError(unreachable ? .unavailable : .failed, detail)
    }

    /// SQLSTATE classes 08 (connection), 28 (authorization), 3D (no such database) and 42501 (privilege).
    private static func isAccessProblem(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("28") || state.hasPrefix("3D") || state == "42501"
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        let message = text.map { String(cString: $0) } ?? ""
        // libpq's messages span lines, continuation lines indented with a tab.
        return message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: " ")
    }

    deinit {
        PQfinish(handle)
    }
}
