import Foundation
import Glibc
import PostgresRecordStore
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// Two `batch` stations on one database, the same unit list, disjoint adapters of one BlueZ mock whose
/// units every adapter hears: the claims keep them from provisioning any unit twice, and a station killed
/// mid-batch leaves its units to the other once its claims run out.
@Suite(.serialized, .requiresHarnessHost, .postgresServer)
struct BatchClaimsEndToEndTests {
    enum Database: String, CaseIterable, Sendable {
        case sqlite, postgres
    }

    static let units = 8
    static let stations = [("line-1-st-1", "hci0,hci1"), ("line-1-st-2", "hci2,hci3")]

    /// The `--db` value: a file in the workspace, or a fresh database reached over the server's Unix
    /// socket (the stations run in the harness's network namespace, where the server's loopback is not).
    static func location(_ database: Database, _ directory: URL) async throws -> String {
        switch database {
        case .sqlite: return directory.appendingPathComponent("records.sqlite").path
        case .postgres:
            let server = try PostgresTestServer.required()
            let name = try #require(URL(string: try await server.freshDatabase())?.lastPathComponent)
            return "postgresql://\(PostgresTestServer.user)@/\(name)?host=\(server.directory)&port=\(server.port)"
        }
    }

    static func records(_ database: Database, at location: String) async throws -> [ProvisioningRecord] {
        let store: any ProvisioningRecordStore =
            switch database {
            case .sqlite: try await SQLiteRecordStore(readingPath: location)
            case .postgres: try await PostgresRecordStore(readingURL: location)
            }
        return try await store.records(matching: RecordQuery())
    }

    static func station(
        _ h: HarnessSession, _ directory: URL, db: String, _ station: (name: String, adapters: String),
        _ extra: [String] = []
    ) throws -> ProcessLaunch {
        try BatchEndToEndTests.batch(
            h, directory, ["--db", db, "--station", station.name, "--adapters", station.adapters] + extra)
    }

    /// How many times each unit's device model was sent Wi-Fi credentials (its CONNECT_AP requests).
    static func deliveries(_ h: HarnessSession) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for device in try await h.received(source: .blufi).array ?? [] {
            guard case .number(let requests) = device["connect_ap"] else { continue }
            counts[device["address"]?.string ?? "?"] = Int(requests)
        }
        return counts
    }

    /// No secret in the output, nor in the SQLite files (PostgreSQL's are the server's).
    static func expectNoSecret(_ outcome: ProcessOutcome, _ database: Database, _ directory: URL) throws {
        switch database {
        case .sqlite: try BatchEndToEndTests.expectNoSecret(outcome, directory)
        case .postgres: #expect(!outcome.everything.contains(BatchEndToEndTests.wifiPassword))
        }
    }

    /// A harness with the units every adapter hears, their list in a scratch directory, and the `--db` the
    /// stations share.
    static func withLine(
        _ database: Database, slow: Set<Int> = [], _ body: (HarnessSession, URL, String) async throws -> Void
    ) async throws {
        let directory = try BatchEndToEndTests.workspace(units: units)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = try await location(database, directory)
        try await withHarness(scenario: BatchEndToEndTests.scenario(units: units, slow: slow)) { h in
            try await body(h, directory, db)
        }
    }

    static func count(_ event: String, in outcome: ProcessOutcome) -> Int {
        outcome.events.filter { $0["event"] as? String == event }.count
    }

    @Test(arguments: Database.allCases)
    func twoStationsProvisionEveryUnitExactlyOnce(_ database: Database) async throws {
        try await Self.withLine(database) { h, directory, db in
            let first = try Self.station(h, directory, db: db, Self.stations[0]).start()
            let second = try Self.station(h, directory, db: db, Self.stations[1]).start()
            let outcomes = [await first.waitForExit(), await second.waitForExit()]
            for outcome in outcomes { #expect(outcome.exitStatus == 0, "\(outcome)") }

            let records = try await Self.records(database, at: db)
            for index in 1...Self.units {
                let successes = records.filter { $0.deviceKey == BatchEndToEndTests.address(index) && $0.succeeded }
                #expect(successes.count == 1, "unit \(index): \(records.map { ($0.deviceKey, $0.station, $0.code) })")
            }
            #expect(records.count == outcomes.map { Self.count("attempt-recorded", in: $0) }.reduce(0, +))
            #expect(Set(records.map(\.station)).count == 2, "one station did all the work")
            let deliveries = try await Self.deliveries(h)
            #expect(deliveries.count == Self.units)
            #expect(deliveries.values.allSatisfy { $0 == 1 }, "\(deliveries)")
            let summaries = outcomes.compactMap { $0.events.last { $0["event"] as? String == "summary" } }
            #expect(summaries.map { $0["provisioned"] as? Int ?? 0 }.reduce(0, +) == Self.units)
            #expect(summaries.map { $0["skipped"] as? Int ?? 0 }.reduce(0, +) == Self.units)
            for outcome in outcomes { try Self.expectNoSecret(outcome, database, directory) }
        }
    }

    /// The killed station runs in its own PID namespace, so the other cannot tell it died and must wait
    /// for its claims to run out, as a station on another host would.
    @Test(arguments: Database.allCases)
    func aKilledStationsClaimsRunOutAndTheOtherTakesItsUnits(_ database: Database) async throws {
        // The third unit's writes are slow, so the kill, however late a busy machine delivers it, lands while
        // that unit is connected and claimed and before its credentials are sent.
        try await Self.withLine(database, slow: [3]) { h, directory, db in
            // Long enough that the other station, started after the kill, surely finds the claim still held.
            var launch = try Self.station(h, directory, db: db, Self.stations[0], ["--claim-lifetime", "15"])
            launch.arguments = ["--pid", "--fork", "--kill-child", launch.executable] + launch.arguments
            launch.executable = "/usr/bin/unshare"
            let doomed = try launch.start()
            // Killed while it holds the third unit: connected, its claim taken, nothing sent yet.
            doomed.send(signal: SIGKILL, whenStandardErrorContains: "\(BatchEndToEndTests.address(3)): connected")
            let killed = await doomed.waitForExit()
            #expect(killed.termination == .signalled(SIGKILL), "\(killed)")
            let before = try await Self.records(database, at: db)
            // The station died mid-batch. It may have finished no unit yet: a lane that started first claims
            // its next unit ahead, so the other lane's first unit can be the third.
            let finishedBefore = Set(before.filter(\.succeeded).map(\.deviceKey))
            #expect(finishedBefore.count < Self.units && !finishedBefore.contains(BatchEndToEndTests.address(3)))

            let survivor = try await Self.station(h, directory, db: db, Self.stations[1]).run()
            #expect(survivor.exitStatus == 0, "\(survivor)")
            let passedOver = survivor.events.filter { $0["event"] as? String == "passed-over" }
            #expect(passedOver.contains { $0["device"] as? String == BatchEndToEndTests.address(3) }, "\(passedOver)")
            #expect(passedOver.allSatisfy { $0["held_by"] as? String == Self.stations[0].0 }, "\(passedOver)")
            let records = try await Self.records(database, at: db)
            for index in 1...Self.units {
                let key = BatchEndToEndTests.address(index)
                let successes = records.filter { $0.deviceKey == key && $0.succeeded }
                #expect(successes.count == 1, "unit \(index): \(successes.map(\.station))")
                if !finishedBefore.contains(key) { #expect(successes.first?.station == Self.stations[1].0) }
            }
            for passed in passedOver {
                let key = try #require(passed["device"] as? String)
                #expect(records.contains { $0.deviceKey == key && $0.succeeded && $0.station == Self.stations[1].0 })
            }
            try Self.expectNoSecret(survivor, database, directory)
        }
    }
}
