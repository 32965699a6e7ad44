import Foundation

/// Finds programs the way a shell does, because a spawned program needs an absolute path.
public enum ExecutableLookup {
    /// The first executable file named `name` in the directories of `PATH`, or `nil`.
    public static func path(of name: String) -> String? {
        let directories = ProcessInfo.processInfo.environment["PATH", default: ""].split(separator: ":")
        return directories.lazy
            .map { "\($0)/\(name)" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
