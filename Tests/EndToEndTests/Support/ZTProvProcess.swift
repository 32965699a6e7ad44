import Foundation
import TestSupport

/// The built `ztprov` executable, started as a user starts it.
///
/// SwiftPM puts the executable next to the test binary (`.build/<triple>/debug/`), and builds it for
/// `swift test` because this test target depends on it.
enum ZTProvProcess {
    /// The executable, or an error naming every place searched.
    static func executable() throws -> String {
        let candidates = buildDirectories().map { $0.appending(path: "ztprov").path }
        guard let found = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw ZTProvProcessError.executableNotFound(searched: candidates)
        }
        return found
    }

    /// A launch of `ztprov` with `arguments`; set its environment, input, namespace and deadline, then
    /// `run(interrupting:)` or `start()` it.
    static func launch(_ arguments: [String]) throws -> ProcessLaunch {
        ProcessLaunch(try executable(), arguments)
    }

    /// Runs `ztprov` with `arguments` and the launch defaults.
    static func run(_ arguments: [String]) async throws -> ProcessOutcome {
        try await launch(arguments).run()
    }

    /// Directories the test binary lives in: its own (Linux runs it directly) and that of an
    /// `.xctest` bundle loaded into a runner (macOS).
    private static func buildDirectories() -> [URL] {
        let testBinary = Bundle.main.executableURL.map { [$0.resolvingSymlinksInPath()] } ?? []
        let bundles = Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        return (testBinary + bundles).map { $0.deletingLastPathComponent() }
    }
}

/// Why `ztprov` could not be found.
enum ZTProvProcessError: Error, CustomStringConvertible {
    /// No executable at any of these paths.
    case executableNotFound(searched: [String])

    var description: String {
        switch self {
        case .executableNotFound(let searched):
            "no ztprov executable (build it with `swift build`); searched: \(searched.joined(separator: ", "))"
        }
    }
}
