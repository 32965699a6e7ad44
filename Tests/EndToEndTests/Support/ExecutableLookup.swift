import Foundation

/// Finds programs the way a shell does, because `Process` needs absolute paths.
enum ExecutableLookup {
    /// The first executable file named `name` in the directories of `PATH`, or `nil`.
    static func path(of name: String) -> String? {
        let directories = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":")
        return directories.lazy
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
