import Foundation
import Glibc
import SQLiteRecordStore
import TestSupport
import Testing

/// libnm (with GLib, GObject, GIO), libpq (with Kerberos, LDAP, SASL), libsqlite3 and libssl are loaded on
/// first use, not linked: `--help` and `ble` never map them, the commands that need them do, and a host
/// without them gets a named error from those commands only. What each run mapped is read from the
/// dynamic loader's own log, which sees `dlopen` too (`ldd` does not).
@Suite(.serialized, .requiresHarnessHost)
struct LazyLibrariesEndToEndTests {
    /// What libnm, libpq, libsqlite3 and libssl bring; none of it belongs in a command that neither joins a
    /// hotspot, keeps records nor talks TLS.
    static let loadedOnFirstUse = [
        "libnm.so", "libglib-2.0.so", "libgobject-2.0.so", "libgio-2.0.so", "libpq.so", "libkrb5.so", "libldap",
        "libsasl2.so", "libsqlite3.so", "libssl.so",
    ]

    static func expectNoneLoadedOnFirstUse(_ log: LoaderLog, sourceLocation: SourceLocation = #_sourceLocation) {
        for name in loadedOnFirstUse {
            #expect(!log.opened(name), "mapped \(name): \(log.libraries)", sourceLocation: sourceLocation)
        }
    }

    @Test func helpMapsNoneOfTheLibrariesLoadedOnFirstUse() async throws {
        let log = try await LoaderLog.run(try ZTProvProcess.launch(["--help"]))
        #expect(log.outcome.succeeded, "\(log.outcome)")
        // The log was read: the libraries every command needs are in it.
        #expect(log.opened("libdbus-1.so") && log.opened("libcrypto.so"), "\(log.libraries)")
        Self.expectNoneLoadedOnFirstUse(log)
    }

    @Test func bleProvisioningMapsNoneOfTheLibrariesLoadedOnFirstUse() async throws {
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

    @Test func sqliteRecordsLoadLibSQLiteOnFirstUse() async throws {
        let records = try await Self.emptyRecordsFile()
        defer { try? FileManager.default.removeItem(at: records.deletingLastPathComponent()) }
        let log = try await LoaderLog.run(
            try ZTProvProcess.launch(["report", "--format", "csv", "--db", records.path]))
        #expect(log.outcome.succeeded, "\(log.outcome)")
        #expect(log.loadedLater.contains { $0.hasPrefix("libsqlite3.so.0") }, "\(log.loadedLater)")
        #expect(!log.opened("libpq.so") && !log.opened("libssl.so"), "\(log.libraries)")
    }

    @Test func withoutLibSQLiteSQLiteRecordsAreANamedError() async throws {
        let records = try await Self.emptyRecordsFile()
        defer { try? FileManager.default.removeItem(at: records.deletingLastPathComponent()) }
        let outcome = try await Self.withLibraryHidden("libsqlite3.so.0") {
            ["report", "--format", "csv", "--db", records.path]
        }
        #expect(outcome.exitStatus == 3, "\(outcome)")
        #expect(outcome.standardError.contains("error[records.unavailable]: "), "\(outcome)")
        #expect(outcome.standardError.contains("cannot load libsqlite3 (install libsqlite3-0)"), "\(outcome)")
    }

    /// An `https://` SC URL is the one use of TLS; nothing listens on port 1, so the exchange fails after
    /// libssl is loaded.
    static let httpsHandoff = [
        "handoff", "--device-address", "127.0.0.1:9", "--local-port", "0", "--area-id", "7", "--sc-url",
        "https://127.0.0.1:1", "--sc-session-env", "E2E_SC_SESSION", "--verbose",
    ]

    @Test func anHTTPSSCURLLoadsLibSSLOnFirstUse() async throws {
        var launch = try ZTProvProcess.launch(Self.httpsHandoff)
        launch.environment["E2E_SC_SESSION"] = "_session_=sc-secret-4711"
        let log = try await LoaderLog.run(launch)
        #expect(log.outcome.exitStatus == 5, "\(log.outcome)")
        #expect(log.outcome.standardError.contains("error[sc.unreachable]: "), "\(log.outcome)")
        #expect(log.loadedLater.contains { $0.hasPrefix("libssl.so.3") }, "\(log.loadedLater)")
        #expect(!log.opened("libsqlite3.so"), "\(log.libraries)")
    }

    @Test func withoutLibSSLAnHTTPSSCURLIsANamedError() async throws {
        let outcome = try await Self.withLibraryHidden("libssl.so.3") { Self.httpsHandoff }
        #expect(outcome.exitStatus == 5, "\(outcome)")
        #expect(outcome.standardError.contains("error[sc.unreachable]: "), "\(outcome)")
        #expect(outcome.standardError.contains("cannot load libssl (install libssl3)"), "\(outcome)")
        #expect(!outcome.everything.contains("sc-secret-4711"))
    }

    /// A records file with ztprov's schema and no records, in a directory of its own.
    static func emptyRecordsFile() async throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appending(path: "ztprov-lazy-\(UUID().uuidString)")
        let path = directory.appending(path: "records.sqlite")
        _ = try await SQLiteRecordStore(path: path.path)
        return path
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
        launch.environment = [
            "E2E_POP": "pop-4711", "E2E_WIFI": "wifi-secret-0815", "E2E_SC_SESSION": "_session_=sc-secret-4711",
        ]
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
