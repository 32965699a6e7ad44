import Foundation
import TestSupport

/// Debian's Python with its own sqlite3 module: an independent process and library that reads (or
/// tampers with) the file the store writes.
enum PythonSQLiteReader {
    /// Runs `sql` on the file in a separate process and returns the first row's columns as text.
    static func query(path: String, sql: String) async throws -> [String] {
        let script = """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            row = connection.execute(sys.argv[2]).fetchone()
            print("\\x1f".join("" if value is None else str(value) for value in (row or ())))
            """
        let text = try await ProcessLaunch(RepositoryLayout.python, ["-c", script, path, sql]).output()
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return line.isEmpty ? [] : line.components(separatedBy: "\u{1F}")
    }
}
