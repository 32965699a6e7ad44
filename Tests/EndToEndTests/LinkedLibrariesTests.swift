import TestSupport
import Testing

/// `ztprov` loads FoundationEssentials, never full Foundation: `Foundation` brings ICU
/// (FoundationInternationalization, `lib_FoundationICU`), and `FoundationNetworking` libcurl with its
/// own dozen libraries. Together they took about 20 MiB of resident memory in every run, `--help`
/// included (Tests/Benchmarks/README.md, Footprint). One `import Foundation` in any linked module brings
/// them back.
@Suite struct LinkedLibrariesTests {
    static let unwanted = [
        "libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so",
        "libFoundationNetworking.so", "libFoundationXML.so", "libcurl.so",
    ]

    @Test func ztprovLoadsNeitherFullFoundationNorCurl() async throws {
        let binary = try ZTProvProcess.executable()
        let outcome = try await ProcessLaunch("/usr/bin/ldd", [binary]).run()
        #expect(outcome.succeeded, "ldd \(binary): \(outcome.standardError)")
        let loaded = outcome.standardOutput.split(separator: "\n").compactMap {
            $0.split(whereSeparator: \.isWhitespace).first.map(String.init)
        }
        // The list was read: ztprov's own C libraries are in it.
        #expect(loaded.contains("libdbus-1.so.3"), "\(loaded)")
        for name in Self.unwanted {
            #expect(!loaded.contains { $0.hasPrefix(name) }, "\(binary) loads \(name)")
        }
    }
}
