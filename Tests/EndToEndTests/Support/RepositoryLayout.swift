import Foundation

/// Where the tests find the repository's pieces: derived from this file's own path, so the tests
/// work from any checkout and any working directory.
enum RepositoryLayout {
    /// Debian's interpreter, which has the python3-* packages the harness needs (a `python3` found
    /// first on `PATH` may be a different installation without them).
    static let python = "/usr/bin/python3"

    /// The repository root: three levels above `Tests/EndToEndTests/Support/`.
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Python harness's directory, where its own test suite runs.
    static let harnessDirectory = root.appending(path: "Tests/Harness")

    /// The harness's entry point (`up`, `down`, `status`, `received`, `calls`).
    static let harnessScript = harnessDirectory.appending(path: "harness.py")
}
