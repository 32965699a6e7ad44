import CSQLite
import Records

/// One SQLite connection; used only from its store's executor, which is why it needs no lock.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var busyWait: SQLiteBusyWait?
    /// Whether the last failure was SQLite's "database is locked" (`SQLITE_BUSY`).
    private(set) var lastFailureWasBusy = false

    /// Opens the file, creating it unless `readOnly`; failures are `.unavailable`, with SQLite's words.
    ///
    /// Read-only is SQLite's own `SQLITE_OPEN_READONLY`: no file is ever created and nothing can be
    /// written, whatever a bug upstream might ask. `immutable` (read-only only) tells SQLite the file
    /// cannot change while open, so it needs no lock and no `-shm` file: for a reader who may not
    /// create one, of a file no writer has open. Opening again closes the previous connection.
    func open(path: String, busyTimeout: Duration, readOnly: Bool = false, immutable: Bool = false)
        throws(RecordStoreError)
    {
        if let handle {
            sqlite3_close_v2(handle)
            self.handle = nil
        }
        if let failure = CSQLite_load() {
            throw RecordStoreError(
                .unavailable, "cannot load libsqlite3 (install libsqlite3-0): \(String(cString: failure))")
        }
        var opened: OpaquePointer?
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        var name = path
        if readOnly, immutable {
            flags |= SQLITE_OPEN_URI
            name = "file:" + Self.uriPath(path) + "?immutable=1"
        }
        let status = sqlite3_open_v2(name, &opened, flags, nil)
        guard status == SQLITE_OK, let opened else {
            let detail = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(opened)
            throw RecordStoreError(.unavailable, detail)
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        let wait = SQLiteBusyWait(limit: busyTimeout)
        busyWait = wait
        sqlite3_busy_handler(opened, SQLiteBusyWait.handler, Unmanaged.passUnretained(wait).toOpaque())
    }

    /// `path` as the path of a `file:` URI: `%`, `?` and `#` (and anything not printable ASCII)
    /// percent-encoded, so no file name is read as URI syntax.
    private static func uriPath(_ path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            if byte > 0x20, byte < 0x7F, byte != UInt8(ascii: "%"), byte != UInt8(ascii: "?"), byte != UInt8(ascii: "#")
            {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += (byte < 0x10 ? "%0" : "%") + String(byte, radix: 16, uppercase: true)
            }
        }
        return encoded
    }

    /// Runs SQL that takes no parameters (pragmas, schema, transaction control).
    func execute(_ sql: String) throws(RecordStoreError) {
        let statement = try prepare(sql)
        while try statement.step() != nil {}
    }

    /// A prepared statement for `sql`, whose values are bound, never spliced into the text.
    func prepare(_ sql: String) throws(RecordStoreError) -> SQLiteStatement {
        guard let handle else { throw RecordStoreError(.unavailable, "the database is not open") }
        var prepared: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
        guard status == SQLITE_OK, let prepared else { throw error(status) }
        return SQLiteStatement(prepared, database: self)
    }

    /// The error for a failed call, classified: a file that is not a database is not ours; a file
    /// that cannot be opened or written is unavailable; anything else is a failed statement.
    func error(_ status: Int32) -> RecordStoreError {
        lastFailureWasBusy = status & 0xFF == SQLITE_BUSY
        let detail = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
        switch status & 0xFF {
        case SQLITE_NOTADB: return RecordStoreError(.incompatibleSchema, detail)
        case SQLITE_CANTOPEN, SQLITE_PERM, SQLITE_READONLY, SQLITE_AUTH: return RecordStoreError(.unavailable, detail)
        default: return RecordStoreError(.failed, detail)
        }
    }

    deinit {
        // Never opened (libsqlite3 may then be missing): nothing to close.
        if let handle { sqlite3_close_v2(handle) }
    }
}
