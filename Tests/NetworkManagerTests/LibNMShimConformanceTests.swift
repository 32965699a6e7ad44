import Foundation
import TestSupport
import Testing

/// `CLibNM`'s header declares the libnm and GLib functions it forwards instead of including libnm's
/// headers (so no importer needs their paths). These tests hold those declarations to libnm's own: the
/// forwarders compiled after libnm's headers, where any prototype, constant or layout that disagrees fails.
@Suite struct LibNMShimConformanceTests {
    /// Under CI a missing compiler or libnm's headers fail the test; elsewhere they skip it.
    static let toolsPresent: Bool = {
        let present = ExecutableLookup.path(of: "cc") != nil && libnmCFlags() != nil
        precondition(present || ProcessInfo.processInfo.environment["CI"] == nil, "CI needs cc and libnm-dev")
        return present
    }()

    @Test(.enabled(if: toolsPresent, "needs cc, pkg-config and libnm-dev (.ci/install-system-packages)"))
    func theForwardersAgreeWithLibNMsHeaders() async throws {
        let outcome = try await compileAgainstLibNM(shimDirectory: Self.shimDirectory)
        #expect(outcome.succeeded, "\(outcome)")
    }

    /// The check can fail: each kind of disagreement, made in a copy of the header, is refused.
    @Test(
        .enabled(if: toolsPresent, "needs cc, pkg-config and libnm-dev (.ci/install-system-packages)"),
        arguments: [
            ("guint (nm_device_get_state)(", "gint (nm_device_get_state)("),
            ("CLibNM_DEVICE_ERROR_NOT_ALLOWED = 6", "CLibNM_DEVICE_ERROR_NOT_ALLOWED = 7"),
            (
                "gsize (g_variant_n_children)(GVariant *value)",
                "gsize (g_variant_n_children)(GVariant *value, gint extra)"
            ),
        ])
    func aDeclarationThatDisagreesIsRefused(original: String, altered: String) async throws {
        let copy = try TemporaryDirectory("libnm-shim")
        defer { copy.remove() }
        let header = try String(contentsOf: Self.shimDirectory.appending(path: "shim.h"), encoding: .utf8)
        #expect(header.contains(original))
        try header.replacingOccurrences(of: original, with: altered)
            .write(to: copy.url.appending(path: "shim.h"), atomically: true, encoding: .utf8)
        let outcome = try await compileAgainstLibNM(shimDirectory: copy.url)
        #expect(outcome.exitStatus != 0, "\(outcome)")
    }

    static let shimDirectory = RepositoryLayout.root.appending(path: "Sources/CLibNM/include")

    /// Waits for the compiler without holding a thread of the shared pool, which other suites' timers need.
    private func compileAgainstLibNM(shimDirectory: URL) async throws -> ProcessOutcome {
        let cflags = try #require(Self.libnmCFlags())
        let loader = RepositoryLayout.root.appending(path: "Sources/CLibNM/LibNMLoader.c").path
        let lazyLibrary = RepositoryLayout.root.appending(path: "Sources/CLazyLibrary/include").path
        let arguments =
            ["-fsyntax-only", "-Wall", "-Werror", "-DCLIBNM_CHECK_AGAINST_LIBNM", "-include", "NetworkManager.h"]
            + cflags + ["-I", shimDirectory.path, "-I", lazyLibrary, loader]
        let compiler = try #require(ExecutableLookup.path(of: "cc"))
        return try await ProcessLaunch(compiler, arguments).run()
    }

    private static func libnmCFlags() -> [String]? {
        guard let pkgConfig = ExecutableLookup.path(of: "pkg-config"),
            let outcome = try? ProcessLaunch(pkgConfig, ["--cflags", "libnm"]).runBlocking(), outcome.succeeded
        else { return nil }
        return outcome.standardOutput.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
