import Foundation
import Glibc
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov report --serve` as the built binary over an SQLite file that the test writes into as a station
/// would: the live page in headless Chromium, `/metrics` through Prometheus' own parser, hostile record
/// text, the loopback rule, and the way the server ends.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ReportServeEndToEndTests {
    /// Starts `report --serve` on a port the system picks, runs `body` with the page's URL, then sends
    /// `signal` and expects the exit status it stands for.
    static func serving(
        _ database: String, _ extra: [String] = [], address: String = "127.0.0.1:0", stopWith signal: Int32 = SIGTERM,
        expecting status: Int32 = 143, _ body: (_ url: String, _ server: RunningProcess) async throws -> Void
    ) async throws {
        var launch = try ZTProvProcess.launch(["report", "--serve", address, "--db", database] + extra)
        launch.deadline = .seconds(280)
        let server = try launch.start()
        try await server.waitUntilReady("report --serve") { server.standardErrorSoFar.contains("(metrics at ") }
        let said = server.standardErrorSoFar
        let url = try #require(
            said.range(of: "Serving the line at ").map { said[$0.upperBound...].prefix { $0 != " " } }.map(String.init),
            "\(said)")
        do {
            try await body(url.replacingOccurrences(of: "0.0.0.0", with: "127.0.0.1"), server)
        } catch {
            await server.stop()
            throw error
        }
        server.send(signal: signal)
        let outcome = await server.waitForExit()
        #expect(outcome.exitStatus == status, "\(outcome)")
        #expect(
            outcome.standardError.contains(signal == SIGTERM ? "error[interrupted.terminated]" : "error[interrupted]"))
        // A server holds no device and no network to release.
        #expect(outcome.standardError.contains("Interrupted: stopping the server\n"), "\(outcome)")
    }

    /// A unit provisioned just now at `station`, as a station records it.
    static func landed(_ unit: String, station: String = "line-3", code: String = "ok") -> ProvisioningRecord {
        let now = Date()
        return ProvisioningRecord(
            batchID: "live-1", station: station, adapter: "hci0", deviceKey: unit, path: .ble, attempt: 1,
            isFinal: true, code: code, startedAt: now.addingTimeInterval(-1.5), finishedAt: now,
            steps: [RecordedStep(name: "connect", milliseconds: 500)], provisioningProtocol: "blufi")
    }

    @Test(.requiresTools("chromium"))
    func chromiumShowsEachNewRecordAsItLands() async throws {
        try await ReportHTMLEndToEndTests.withShiftDatabase { directory, database in
            try await Self.serving(database) { url, server in
                let (seen, landedAt) = try await Self.landThreeRecords(
                    into: database, shownAt: url, directory: directory, server: server)
                #expect((seen["console"] as? [String])?.isEmpty == true, "\(seen)")
                let checks = seen["checks"] as? [String: String] ?? [:]
                #expect(checks["rate:line-3:provisioned"] == "3", "\(checks)")
                #expect(checks["quiet:line-1"] == "line-1", "\(checks)")
                #expect(checks["in-progress"] == "0", "\(checks)")
                let latencies = (seen["seen"] as? [[Any]] ?? []).compactMap { pair -> String? in
                    guard let value = pair.first as? String, let at = pair.last as? Double, let landed = landedAt[value]
                    else { return nil }
                    return "\(value): \(Int((at - landed.timeIntervalSince1970) * 1000)) ms"
                }
                print("report --serve: record landed → shown in Chromium: \(latencies.joined(separator: ", "))")
            }
        }
    }

    /// Between the page and the server, a front (`Tests/Browser/faulty_front.py`) cuts the first fresh
    /// page short (the length its head declares never arrives) and fails the next request for changes
    /// (503): the page keeps what it shows, asks again, and shows every record; it never leaves for an
    /// error page or a half page without its script.
    @Test(.requiresTools("chromium"))
    func thePageOutlivesAnAnswerCutShortAndAFailedRequest() async throws {
        try await ReportHTMLEndToEndTests.withShiftDatabase { directory, database in
            try await Self.serving(database) { url, server in
                var launch = ProcessLaunch(
                    RepositoryLayout.python,
                    [
                        RepositoryLayout.root.appending(path: "Tests/Browser/faulty_front.py").path, url,
                        "/#2=cut,/changes#2=503",
                    ])
                launch.deadline = .seconds(240)
                let front = try launch.start()
                try await front.waitUntilReady("the faulty front") { front.standardOutputSoFar.hasSuffix("/\n") }
                let frontURL = front.standardOutputSoFar.trimmingCharacters(in: .whitespacesAndNewlines)
                let (seen, _) = try await Self.landThreeRecords(
                    into: database, shownAt: frontURL, directory: directory, server: server)
                let spoiled = await front.stop().standardError
                #expect(spoiled.contains("\"GET / HTTP/1.1\" 200"), "\(spoiled)")
                #expect(spoiled.contains("\"GET /changes?after=29 HTTP/1.1\" 503"), "\(spoiled)")
                let history = seen["history"] as? [String] ?? []
                #expect(history.contains { $0.hasPrefix("failed ") }, "\(history)")
                #expect(history.filter { $0.hasPrefix("navigated ") } == ["navigated \(frontURL)"], "\(history)")
                #expect((seen["page"] as? [String])?.first == frontURL, "\(seen)")
            }
        }
    }

    /// Opens `url` in Chromium, then lands three records one after another, each once the page showed
    /// the one before; what the page showed, and when each record landed.
    static func landThreeRecords(
        into database: String, shownAt url: String, directory: String, server: RunningProcess
    ) async throws -> (seen: [String: Any], landedAt: [String: Date]) {
        let shown = directory + "/shown"
        var watcher = ProcessLaunch(
            RepositoryLayout.python,
            [
                RepositoryLayout.root.appending(path: "Tests/Browser/live_page_in_chromium.py").path, url,
                "attempts", "32", shown,
            ])
        watcher.deadline = .seconds(150)
        let page = try watcher.start()
        try await page.waitUntilReady("the page in Chromium", within: .seconds(90)) {
            FileManager.default.fileExists(atPath: shown)
        }
        let store = try await SQLiteRecordStore(path: database)
        var landedAt: [String: Date] = [:]
        for (index, value) in ["30", "31", "32"].enumerated() {
            try await store.append(Self.landed("live-\(index)"))
            landedAt[value] = Date()
            // Polls what the page shows (the watcher writes each new value, and ends on the last): no timed
            // assertion, the suite's time limit catches a page that never shows it.
            try await Self.poll {
                page.hasExited || (try? String(contentsOfFile: shown, encoding: .utf8)) == value
            }
        }
        let outcome = await page.waitForExit()
        try #require(outcome.succeeded, "\(outcome)")
        let seen = try Self.object(outcome.standardOutput)
        let values = (seen["seen"] as? [[Any]] ?? []).compactMap { $0.first as? String }
        if values != ["29", "30", "31", "32"] {
            // What the server holds now, beside what the page showed: which of the two fell behind.
            let current = try await ProcessLaunch(
                "/usr/bin/curl", ["-s", "--noproxy", "*", "--max-time", "5", url + "changes?after=-1"]
            ).run()
            let message =
                "the page showed \(values); the server is at record \(current.standardOutput) and said: "
                + "\(server.standardErrorSoFar); the page: \(seen)"
            Issue.record(Comment(rawValue: message))
        }
        return (seen, landedAt)
    }

    @Test func metricsParseAndMatchTheJSONExport() async throws {
        try await ReportHTMLEndToEndTests.withShiftDatabase { _, database in
            let export = try await ZTProvProcess.run(["report", "--format", "json", "--db", database])
            #expect(export.exitStatus == 0, "\(export)")
            let records = try export.standardOutput.split(separator: "\n").map { try Self.object(String($0)) }
            try await Self.serving(database) { url, _ in
                let scraped = try await Self.scrape(url + "metrics")
                #expect(scraped.contentType.hasPrefix("text/plain; version=0.0.4"), "\(scraped.contentType)")
                #expect(scraped.types["ztprov_attempts"] == "counter", "\(scraped.types)")
                #expect(scraped.types["ztprov_unit_duration_seconds"] == "histogram", "\(scraped.types)")
                #expect(scraped.types["ztprov_units_in_progress"] == "gauge", "\(scraped.types)")

                var attempts: [String: Double] = [:]
                var settled: [String: Double] = [:]
                var secured: [String: Double] = [:]
                for record in records {
                    let key = "\(record["station"] ?? "") \(record["code"] ?? "")"
                    attempts[key, default: 0] += 1
                    if record["is_final"] as? Bool == true { settled[key, default: 0] += 1 }
                    if record["is_final"] as? Bool == true, record["code"] as? String == "ok" {
                        let securedWith = record["secured_with"] as? String ?? "unknown"
                        let level = record["security_level"] as? String ?? "unknown"
                        secured["\(record["station"] ?? "") \(securedWith) \(level)", default: 0] += 1
                    }
                }
                #expect(scraped.sum("ztprov_attempts_total", by: ["station", "code"]) == attempts)
                #expect(scraped.sum("ztprov_units_settled_total", by: ["station", "code"]) == settled)
                #expect(
                    scraped.sum(
                        "ztprov_units_provisioned_by_security_total", by: ["station", "secured_with", "level"])
                        == secured)
                #expect(
                    scraped.sum("ztprov_unit_duration_seconds_count", by: ["station"]) == ["line-1": 18, "line-2": 6])
                let last = Dictionary(grouping: records) { "\($0["station"] ?? "")" }.mapValues { group in
                    group.compactMap { ($0["finished_at"] as? String).flatMap(Self.instant) }.max() ?? 0
                }
                for (station, seconds) in scraped.sum("ztprov_last_record_timestamp_seconds", by: ["station"]) {
                    #expect(abs(seconds - (last[station] ?? 0)) < 0.002, "\(station)")
                }

                // A record that lands is counted at the next scrape after it.
                let store = try await SQLiteRecordStore(path: database)
                try await store.append(Self.landed("live-0", code: "ble.link-lost"))
                try await Self.poll {
                    try await Self.scrape(url + "metrics").sum("ztprov_attempts_total", by: ["station", "code"])[
                        "line-3 ble.link-lost"] == 1
                }
            }
        }
    }

    /// Generated hostile text in every field a scanner or device fills, through the live page (Chromium:
    /// no console message, only the page's own elements) and the metrics (Prometheus' parser: every label
    /// value as `report --format json` reads it back, control characters but the line feed shown as U+FFFD).
    @Test(.requiresTools("chromium"))
    func hostileRecordTextStaysInertOnThePageAndInTheLabels() async throws {
        let temporary = try TemporaryDirectory("serve")
        defer { temporary.remove() }
        let database = temporary.path + "/records.sqlite"
        var random = SplitMix64(seed: 31)
        do {
            let store = try await SQLiteRecordStore(path: database)
            for index in 0..<24 {
                var record = Self.landed(HostileText.next(&random), station: HostileText.next(&random))
                record.adapter = HostileText.next(&random)
                record.deviceID = HostileText.next(&random)
                record.message = HostileText.next(&random)
                record.code = index.isMultiple(of: 3) ? "ok" : HostileText.next(&random)
                record.isFinal = index.isMultiple(of: 2)
                record.provisioningProtocol = HostileText.next(&random)
                record.firmware.device = HostileText.next(&random)
                record.steps[0].name = HostileText.next(&random)
                try await store.append(record)
            }
        }
        let export = try await ZTProvProcess.run(["report", "--format", "json", "--db", database])
        #expect(export.exitStatus == 0, "\(export)")
        let records = try export.standardOutput.split(separator: "\n").map { try Self.object(String($0)) }
        let stations = Set(records.compactMap { $0["station"] as? String })
        let codes = Set(records.compactMap { $0["code"] as? String })
        #expect(stations.count > 12)
        try await Self.serving(database) { url, _ in
            let scraped = try await Self.scrape(url + "metrics")
            let labelled = Set(
                scraped.samples.filter { $0.name == "ztprov_attempts_total" }.compactMap { $0.labels["station"] })
            #expect(labelled == Set(stations.map(HostileText.asMetricLabel)))
            let labelledCodes = Set(
                scraped.samples.filter { $0.name == "ztprov_attempts_total" }.compactMap { $0.labels["code"] })
            #expect(labelledCodes == Set(codes.map(HostileText.asMetricLabel)))

            let shown = temporary.path + "/shown"
            var watcher = ProcessLaunch(
                RepositoryLayout.python,
                [
                    RepositoryLayout.root.appending(path: "Tests/Browser/live_page_in_chromium.py").path, url,
                    "attempts", "24", shown,
                ])
            watcher.deadline = .seconds(150)
            let outcome = try await watcher.run()
            try #require(outcome.succeeded, "\(outcome)")
            let seen = try Self.object(outcome.standardOutput)
            #expect((seen["console"] as? [String])?.isEmpty == true, "\(seen)")
            let elements = Set(seen["elements"] as? [String] ?? [])
            let allowed = ReportHTMLEndToEndTests.pageElements.union(["script", "noscript"])
            #expect(elements.isSubset(of: allowed), "\(elements.subtracting(allowed))")
        }
    }

    /// An answer larger than the socket takes at once (a few megabytes of metrics, from station names a
    /// hundred kilobytes long) reaches a slow reader whole: the server closes only once every byte is written.
    @Test func aLargeAnswerReachesASlowReaderWhole() async throws {
        let temporary = try TemporaryDirectory("serve-large")
        defer { temporary.remove() }
        let database = temporary.path + "/records.sqlite"
        do {
            let store = try await SQLiteRecordStore(path: database)
            for index in 0..<4 {
                let station = "line-\(index)-" + String(repeating: "s", count: 100_000)
                try await store.append(Self.landed("unit-\(index)", station: station))
            }
        }
        try await Self.serving(database) { url, _ in
            let read = try await ProcessLaunch(
                RepositoryLayout.python,
                [RepositoryLayout.root.appending(path: "Tests/HTTPClients/slow_reader.py").path, url + "metrics"]
            ).output()
            let answer = try Self.object(read)
            #expect(answer["status"] as? Int == 200, "\(answer)")
            let declared = try #require(answer["declared"] as? Int, "\(answer)")
            #expect(declared > 2_000_000, "\(answer)")
            #expect(answer["received"] as? Int == declared, "\(answer)")
        }
    }

    /// Connections that never finish a request (one silent, two sending a header line a second) are closed
    /// by the server once its wait for a request is over, and a whole request on another connection is
    /// answered meanwhile: idle sockets cannot hold the server's descriptors.
    @Test func connectionsThatNeverFinishTheirRequestAreClosed() async throws {
        try await ReportHTMLEndToEndTests.withShiftDatabase { _, database in
            try await Self.serving(database) { url, _ in
                var launch = ProcessLaunch(
                    RepositoryLayout.python,
                    [
                        RepositoryLayout.root.appending(path: "Tests/HTTPClients/idle_client.py").path, url + "metrics",
                        "3",
                    ])
                launch.deadline = .seconds(90)
                let answer = try Self.object(try await launch.output())
                #expect(answer["whole"] as? Int == 200, "\(answer)")
                let closed = answer["closed_after"] as? [Any] ?? []
                #expect(closed.count == 3 && closed.allSatisfy { $0 is NSNumber }, "\(answer)")
            }
        }
    }

    @Test func aNonLoopbackAddressNeedsItsFlagAndSaysSo() async throws {
        try await ReportHTMLEndToEndTests.withShiftDatabase { _, database in
            for address in ["0.0.0.0:0", "192.0.2.7:9464", "[::]:0"] {
                let refused = try await ZTProvProcess.run(["report", "--serve", address, "--db", database])
                #expect(refused.exitStatus == 2, "\(refused)")
                #expect(refused.standardError.contains("is not a loopback address"), "\(refused)")
                #expect(refused.standardError.contains("--serve-beyond-loopback"), "\(refused)")
            }
            // With the flag it serves, says so, and Ctrl-C ends it with 130.
            try await Self.serving(
                database, ["--serve-beyond-loopback"], address: "0.0.0.0:0", stopWith: SIGINT, expecting: 130
            ) { url, server in
                #expect(server.standardErrorSoFar.contains("Serving beyond loopback"), "\(server.standardErrorSoFar)")
                let scraped = try await Self.scrape(url + "metrics")
                #expect(!scraped.samples.isEmpty)
            }
        }
    }

    @Test func aTakenPortIsANamedErrorAndTheDatabaseIsNeverWritten() async throws {
        try await ReportHTMLEndToEndTests.withShiftDatabase { directory, database in
            let before = try Self.contents(of: directory)
            let taken = try LoopbackBinding(type: Int32(SOCK_STREAM.rawValue))
            defer { close(taken.descriptor) }
            #expect(listen(taken.descriptor, 1) == 0)
            let outcome = try await ZTProvProcess.run([
                "report", "--serve", "127.0.0.1:\(taken.port)", "--db", database,
            ])
            #expect(outcome.exitStatus == 3, "\(outcome)")
            #expect(outcome.standardError.contains("error[report.cannot-serve]: "), "\(outcome)")
            try await Self.serving(database) { url, _ in
                _ = try await Self.scrape(url + "metrics")
                let page = try await ProcessLaunch("/usr/bin/curl", ["-sf", "--noproxy", "*", url]).run()
                #expect(page.standardOutput.contains("data-check=\"attempts\">29<"), "\(page)")
            }
            #expect(try Self.contents(of: directory) == before)
        }
    }

    /// What Prometheus' Python client parsed from one scrape.
    struct Scrape {
        var contentType: String
        var types: [String: String]
        var samples: [(name: String, labels: [String: String], value: Double)]

        /// The values of the samples named `name`, summed by the labels `keys` (joined by a space).
        func sum(_ name: String, by keys: [String]) -> [String: Double] {
            var sums: [String: Double] = [:]
            for sample in samples where sample.name == name {
                sums[keys.map { sample.labels[$0] ?? "" }.joined(separator: " "), default: 0] += sample.value
            }
            return sums
        }
    }

    static func scrape(_ url: String) async throws -> Scrape {
        var launch = ProcessLaunch(
            RepositoryLayout.python,
            [RepositoryLayout.root.appending(path: "Tests/Metrics/scrape_metrics.py").path, url])
        launch.deadline = .seconds(60)
        let outcome = try await launch.run()
        try #require(outcome.succeeded, "\(outcome)")
        let object = try Self.object(outcome.standardOutput)
        let samples = (object["samples"] as? [[Any]] ?? []).compactMap {
            sample -> (String, [String: String], Double)? in
            guard sample.count == 3, let name = sample[0] as? String, let labels = sample[1] as? [String: String],
                let value = (sample[2] as? NSNumber)?.doubleValue
            else { return nil }
            return (name, labels, value)
        }
        return Scrape(
            contentType: object["content_type"] as? String ?? "", types: object["types"] as? [String: String] ?? [:],
            samples: samples.map { (name: $0.0, labels: $0.1, value: $0.2) })
    }

    /// Waits until `condition` holds, looking every 100 ms; the suite's time limit catches a hang.
    static func poll(_ condition: () async throws -> Bool) async throws {
        while try await !condition() { try await Task.sleep(for: .milliseconds(100)) }
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    static func instant(_ text: String) -> Double? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt).parse(text))?
            .timeIntervalSince1970
    }

    /// Every file in `directory` with its bytes, but SQLite's shared-memory index (`-shm`), which readers
    /// use too.
    static func contents(of directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) where !name.hasSuffix("-shm") {
            files[name] = FileManager.default.contents(atPath: directory + "/" + name)
        }
        return files
    }
}
