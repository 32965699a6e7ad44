import CSQLite
import Records

/// A prepared statement: bind values, step through rows, finalized when released.
final class SQLiteStatement {
    private let handle: OpaquePointer
    // Kept so the connection outlives its statements and reports their errors.
    private let database: SQLiteDatabase

    init(_ handle: OpaquePointer, database: SQLiteDatabase) {
        self.handle = handle
        self.database = database
    }

    /// Binds `values` to parameters 1, 2, ….
    func bind(_ values: [SQLiteValue]) throws(RecordStoreError) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status =
                switch value {
                case .null: sqlite3_bind_null(handle, index)
                case .integer(let number): sqlite3_bind_int64(handle, index, number)
                case .text(let text): sqlite3_bind_text(handle, index, text, -1, CSQLite_transient())
                }
            guard status == SQLITE_OK else { throw database.error(status) }
        }
    }

    /// The next row's columns, or nil when the statement is done.
    func step() throws(RecordStoreError) -> [SQLiteValue]? {
        let status = sqlite3_step(handle)
        switch status {
        case SQLITE_ROW: return (0..<sqlite3_column_count(handle)).map(column)
        case SQLITE_DONE: return nil
        default: throw database.error(status)
        }
    }

    /// Every remaining row.
    func rows() throws(RecordStoreError) -> [[SQLiteValue]] {
        var rows: [[SQLiteValue]] = []
        while let row = try step() { rows.append(row) }
        return rows
    }

    private func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, index))
        default: .text(sqlite3_column_text(handle, index).map { String(cString: $0) } ?? "")
        }
    }

    deinit {
        sqlite3_finalize(handle)
    }
}
