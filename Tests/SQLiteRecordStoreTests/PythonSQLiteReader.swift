import Foundation

/// Debian's Python with its own sqlite3 module: an independent process and library that reads (or
/// tampers with) the file the store writes.
enum PythonSQLiteReader {
    /// Runs `sql` on the file in a separate process and returns the first row's columns as text.
    static func query(path: String, sql: String) throws -> [String] {
        let script = """
            import sqlite3, sys
            connection = sqlite3.connect(sys.argv[1], isolation_level=None)
            row = connection.execute(sys.argv[2]).fetchone()
            print("\\x1f".join("" if value is None else str(value) for value in (row or ())))
            """
        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/python3")
        process.arguments = ["-c", script, path, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PythonSQLiteReaderError(message: failure) }
        let line = text.hasSuffix("\n") ? String(text.dropLast()) : text
        return line.isEmpty ? [] : line.components(separatedBy: "\u{1F}")
    }
}

/// The Python process failed; its stderr.
struct PythonSQLiteReaderError: Error, CustomStringConvertible {
    let message: String
    var description: String { "python3 sqlite3 failed: \(message)" }
}
