import Foundation
import Glibc
import TestSupport
import Testing

/// libnm (with GLib, GObject, GIO) and libpq (with Kerberos, LDAP, SASL) are loaded on first use, not
/// linked: `--help` and `ble` never map them, the commands that need them do, and a host without them
/// gets a named error from those commands only. What each run mapped is read from the dynamic
/// loader's own log, which sees `dlopen` too (`ldd` does not).
@Suite(.serialized, .requiresHarnessHost)
struct LazyLibrariesEndToEndTests {
    /// What libnm and libpq bring; none of it belongs in a command that neither joins a hotspot nor
    /// keeps PostgreSQL records.
    static let loadedOnFirstUse = [
        "libnm.so", "libglib-2.0.so", "libgobject-2.0.so", "libgio-2.0.so", "libpq.so", "libkrb5.so", "libldap",
        "libsasl2.so",
    ]

    static func expectNoneLoadedOnFirstUse(_ log: LoaderLog, sourceLocation: SourceLocation = #_sourceLocation) {
        for name in loadedOnFirstUse {
            #expect(!log.opened(name), "mapped \(name): \(log.libraries)", sourceLocation: sourceLocation)
        }
    }

    @Test func helpMapsNeitherLibNMNorLibPQ() async throws {
        let log = try await LoaderLog.run(try ZTProvProcess.launch(["--help"]))
        #expect(log.outcome.succeeded, "\(log.outcome)")
        // The log was read: the libraries every command needs are in it.
        #expect(log.opened("libdbus-1.so") && log.opened("libssl.so"), "\(log.libraries)")
        Self.expectNoneLoadedOnFirstUse(log)
    }

    @Test func bleProvisioningMapsNeitherLibNMNorLibPQ() async throws {
        try await withHarness(scenario: BLEEndToEndTests.scenario()) { h in
            let log = try await LoaderLog.run(try BLEEndToEndTests.ble(h))
            #expect(log.outcome.succeeded, "\(log.outcome)")
            Self.expectNoneLoadedOnFirstUse(log)
        }
    }

    @Test func postgresRecordsLoadLibPQOnFirstUse() async throws {
        let log = try await LoaderLog.run(
            try ZTProvProcess.launch(["report", "--format", "csv", "--db", "postgres://line@127.0.0.1:1/ztprov"]))
        #expect(log.outcome.exitStatus == 3, "\(log.outcome)")
        #expect(log.outcome.standardError.contains("error[records.unavailable]: "), "\(log.outcome)")
        #expect(log.loadedLater.contains { $0.hasPrefix("libpq.so.5") }, "\(log.loadedLater)")
        #expect(!log.opened("libnm.so"), "\(log.libraries)")
    }

    @Test func withoutLibPQPostgresRecordsAreANamedError() async throws {
        let outcome = try await Self.withLibraryHidden("libpq.so.5") {
            ["report", "--format", "csv", "--db", "postgres://line:Sup3r-Secret@127.0.0.1:1/ztprov"]
        }
        #expect(outcome.exitStatus == 3, "\(outcome)")
        #expect(outcome.standardError.contains("error[records.unavailable]: "), "\(outcome)")
        #expect(outcome.standardError.contains("cannot load libpq (install libpq5)"), "\(outcome)")
        #expect(!outcome.standardError.contains("Sup3r-Secret"))
    }

    @Test func withoutLibNMSoftAPIsANamedErrorAndHelpStillWorks() async throws {
        let softAP = try await Self.withLibraryHidden("libnm.so.0") {
            [
                "softap", "--ap-ssid", "PROV_1A2B3C", "--pop-env", "E2E_POP", "--ssid", "HomeNet", "--password-env",
                "E2E_WIFI", "--json",
            ]
        }
        #expect(softAP.exitStatus == 3, "\(softAP)")
        #expect(softAP.standardError.contains("error[host.networkmanager-absent]: "), "\(softAP)")
        #expect(softAP.standardError.contains("libnm"), "\(softAP)")
        #expect(!softAP.everything.contains("wifi-secret-0815"))
        let help = try await Self.withLibraryHidden("libnm.so.0") { ["--help"] }
        #expect(help.succeeded, "\(help)")
    }

    /// Runs `ztprov` with `arguments` in a mount namespace of its own where the shared object `soname`
    /// resolves to an empty file, as on a host without that library.
    static func withLibraryHidden(_ soname: String, _ arguments: () -> [String]) async throws -> ProcessOutcome {
        let path = try #require(try await librarySearchPath(soname), "\(soname) is not installed")
        let empty = FileManager.default.temporaryDirectory.appending(path: "ztprov-empty-\(UUID().uuidString).so")
        try Data().write(to: empty)
        defer { try? FileManager.default.removeItem(at: empty) }
        var launch = ProcessLaunch(
            "/usr/bin/unshare",
            [
                "--mount", "--", "/bin/sh", "-c", "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"", "sh",
                empty.path, path,
                try ZTProvProcess.executable(),
            ] + arguments())
        launch.environment = ["E2E_POP": "pop-4711", "E2E_WIFI": "wifi-secret-0815"]
        return try await launch.run()
    }

    /// Where the loader finds `soname` (`ldconfig -p`).
    static func librarySearchPath(_ soname: String) async throws -> String? {
        let listing = try await ProcessLaunch("/sbin/ldconfig", ["-p"]).output()
        // "	libnm.so.0 (libc6,x86-64) => /lib/x86_64-linux-gnu/libnm.so.0"
        return listing.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(soname + " ") }
            .flatMap { $0.components(separatedBy: " => ").last }
    }
}
