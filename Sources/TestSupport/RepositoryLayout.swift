public import Foundation

/// Where the tests find the repository's pieces: derived from this file's own path, so the tests
/// work from any checkout and any working directory.
public enum RepositoryLayout {
    /// Debian's interpreter, which has the python3-* packages the harness needs (a `python3` found
    /// first on `PATH` may be a different installation without them).
    public static let python = "/usr/bin/python3"

    /// The repository root: two levels above `Sources/TestSupport/`.
    public static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Python harness's directory, where its own test suite runs.
    public static let harnessDirectory = root.appending(path: "Tests/Harness")

    /// The benchmarks' directory, where the tests of their measuring code run.
    public static let benchmarksDirectory = root.appending(path: "Tests/Benchmarks")

    /// The harness's entry point (`up`, `down`, `status`, `received`, `calls`).
    public static let harnessScript = harnessDirectory.appending(path: "harness.py")
}
