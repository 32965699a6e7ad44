import Foundation
import Glibc
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// Where records go, databases that are not ours, spreadsheet-safe exports, and Ctrl-C while a database keeps the process waiting.
@Suite struct RecordSafetyEndToEndTests {
    @Test func emptyAndUnknownLocationsAreRefusedWithoutPrintingAPassword() async throws {
        var random = SplitMix64(seed: 0xDB10)
        var locations = ["", "sqlite:", "SQLITE:", ":memory:"]
        for _ in 0..<3 {
            let scheme = String("sqlite".map { random.chance(50) ? Character($0.uppercased()) : $0 })
            locations += ["\(scheme):", "\(scheme)::memory:"]
        }
        let schemes = ["postgress", "postgre", "pg", "psql", "mysql", "sqlite3", "file", "http", "Postgresq1", "x"]
        var secrets: [String] = []
        for scheme in HostileRun.pick(5, of: schemes, &random) {
            let secret = HostileRun.secret(&random)
            secrets.append(secret)
            locations.append("\(scheme)://line:\(secret)@db.test/ztprov")
            locations.append("\(scheme):line:\(secret)@db.test")
        }
        for location in locations {
            try await HostileRun.expect(
                ["report", "--format", "csv", "--db", location], status: 2, code: "records.invalid-location",
                secrets: secrets)
            guard !location.isEmpty, random.below(3) == 0 else { continue }
            try await HostileRun.expect(
                ["report", "--format", "csv"], environment: ["ZTPROV_DB": location], status: 2,
                code: "records.invalid-location", secrets: secrets)
        }
    }

    @Test func postgresPasswordsAreHiddenHoweverTheyAreWritten() async throws {
        var random = SplitMix64(seed: 0x9A55)
        // In the user info anything goes up to the last `@`; a query value ends at `&`, and an `@` there
        // would be taken for the end of user info, so those two stay out of query passwords.
        let userInfoRaw = Array("/?@#:&=%")
        let queryRaw = Array("/?#:=")
        for round in 0..<4 {
            let scheme = ["postgres", "postgresql", "POSTGRES", "PostgreSQL"][round % 4]
            for (raw, form) in [(userInfoRaw, 0), (queryRaw, 1)] {
                var password = Array(HostileRun.secret(&random))
                for _ in 0..<(1 + random.below(3)) {
                    password.insert(raw[random.below(raw.count)], at: random.below(password.count))
                }
                let secret = String(password)
                let url =
                    form == 0
                    ? "\(scheme)://line:\(secret)@127.0.0.1:1/ztprov?connect_timeout=2"
                    : "\(scheme)://127.0.0.1:1/ztprov?user=line&password=\(secret)&PASSWORD=\(secret)x"
                let outcome = try await HostileRun.expect(
                    ["report", "--format", "csv", "--db", url], status: 3, code: "records.unavailable")
                // Fragments of the password, not only the whole, must stay hidden.
                let fragments = secret.split(whereSeparator: { userInfoRaw.contains($0) }).map(String.init)
                    .filter { $0.count >= 4 }
                for fragment in fragments + [secret] {
                    #expect(!outcome.standardError.contains(fragment), "\(fragment) of \(url) printed: \(outcome)")
                }
            }
        }
    }

    @Test func aRefusedDatabaseIsLeftExactlyAsItWas() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let password = try HostileRun.file("pw", Array("correct horse\n".utf8), in: directory)
        let units = try HostileRun.file("units.csv", Array("ZT_UNIT1\n".utf8), in: directory)
        let headers = [
            "PRAGMA application_id = 1234; CREATE TABLE other (x);",
            "PRAGMA user_version = 1; CREATE TABLE other (x);",
            "PRAGMA application_id = \(0x7A74_7072); PRAGMA user_version = 99; CREATE TABLE attempts (x);",
        ]
        for (index, header) in headers.enumerated() {
            let path = directory.appending(path: "foreign\(index).sqlite").path
            try await Self.sqlite(path, header)
            let before = try Data(contentsOf: URL(filePath: path))
            for arguments in [
                [
                    "batch", "--path", "softap", "--ssid", "Net", "--password-file", password, "--devices", units,
                    "--db", path,
                ],
                ["report", "--format", "csv", "--db", path],
            ] {
                try await HostileRun.expect(arguments, status: 3, code: "records.incompatible-schema")
                #expect(try Data(contentsOf: URL(filePath: path)) == before, "\(arguments) changed \(path)")
                #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            }
        }
    }

    @Test func reportNeverCreatesWritesOrWaitsForAWriter() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appending(path: "sub/none.sqlite").path
        try await HostileRun.expect(
            ["report", "--format", "csv", "--db", missing], status: 3, code: "records.unavailable")
        #expect(!FileManager.default.fileExists(atPath: directory.appending(path: "sub").path))

        let path = directory.appending(path: "records.sqlite").path
        try await SQLiteRecordStore(path: path).append(Self.record(name: "ZT_1"))
        // A writer in rollback-journal mode holding an exclusive lock: the report must not wait it out.
        try await Self.sqlite(path, "PRAGMA journal_mode = DELETE;")
        var holder = ProcessLaunch(
            "/usr/bin/python3",
            [
                "-c",
                "import sqlite3,sys,time; c=sqlite3.connect(sys.argv[1], isolation_level=None); "
                    + "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); time.sleep(120)", path,
            ])
        holder.deadline = .seconds(130)
        let lock = try holder.start()
        defer { lock.send(signal: SIGKILL) }
        try await Task.sleep(for: .seconds(1))
        let outcome = try await HostileRun.expect(
            ["report", "--format", "csv", "--db", path], status: 3, deadline: .seconds(60))
        #expect(outcome.standardError.contains("database is locked"), "\(outcome)")
        #expect(!lock.hasExited, "the report gave up while the writer still held its lock")
    }

    @Test func csvCellsThatASpreadsheetWouldRunAreNeutralised() async throws {
        let directory = try HostileRun.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appending(path: "records.sqlite").path
        let store = try await SQLiteRecordStore(path: path)
        var random = SplitMix64(seed: 0xC5F0)
        let starts = ["=", "+", "-", "@", "\t", "\r"]
        var names: [String] = []
        for _ in 0..<24 {
            let body = ["cmd|' /C calc'!A0", "SUM(1+1)*cmd", "HYPERLINK(\"http://x\")", "1+2", "x,y\"z"][
                random.below(5)]
            names.append(starts[random.below(starts.count)] + body)
        }
        for name in names { try await store.append(Self.record(name: name)) }
        let outcome = try await HostileRun.expect(["report", "--format", "csv", "--db", path], status: 0)
        for name in names {
            let quoted = "'" + name
            let cell =
                quoted.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline })
                ? "\"" + quoted.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : quoted
            #expect(outcome.standardOutput.contains("," + cell + ","), "\(name.debugDescription) not neutralised")
        }
    }

    @Test func sigtermWhileAPostgresConnectWaitsForeverEndsTheRun() async throws {
        let listener = try SilentTCPListener()
        defer { listener.close() }
        var launch = try ZTProvProcess.launch(
            ["report", "--format", "csv", "--db", "postgresql://line@127.0.0.1:\(listener.port)/z?connect_timeout=0"])
        // Without a way out of the wait the run would last until this deadline kills it.
        launch.deadline = .seconds(60)
        let running = try launch.start()
        #expect(listener.waitForConnection(within: .seconds(15)), "ztprov never connected")
        running.send(signal: SIGTERM)
        let outcome = await running.waitForExit()
        #expect(outcome.termination == .exited(143), "\(outcome)")
        #expect(!outcome.hitDeadline)
    }

    static func record(name: String) -> ProvisioningRecord {
        ProvisioningRecord(
            batchID: "b", station: "st", adapter: "hci0", deviceKey: name, address: nil, deviceID: nil,
            path: .ble, attempt: 1, isFinal: true, code: "ok", message: name, startedAt: Date(timeIntervalSince1970: 0),
            finishedAt: Date(timeIntervalSince1970: 1))
    }

    static func sqlite(_ path: String, _ script: String) async throws {
        let code = "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()"
        let outcome = try await ProcessLaunch("/usr/bin/python3", ["-c", code, path, script]).run()
        #expect(outcome.succeeded, "\(outcome)")
    }
}

/// A TCP port on loopback that accepts connections and never says a word, like a hung database server.
final class SilentTCPListener: @unchecked Sendable {
    private let descriptor: Int32
    let port: UInt16

    init() throws {
        let binding = try LoopbackBinding(type: Int32(SOCK_STREAM.rawValue))
        guard listen(binding.descriptor, 8) == 0 else {
            _ = Glibc.close(binding.descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        descriptor = binding.descriptor
        port = binding.port
    }

    /// True once a client's connection waits to be accepted (it is never accepted).
    func waitForConnection(within limit: Duration) -> Bool {
        var descriptor = pollfd(fd: self.descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32(limit / .milliseconds(1))) == 1
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
