import Foundation
import Records
import SQLiteRecordStore
import TestSupport
import Testing

/// `ztprov report --format html` as the built binary over an SQLite file of a generated shift, and the
/// page it writes as headless Chromium shows it.
@Suite struct ReportHTMLEndToEndTests {
    static func withShiftDatabase(_ body: (_ directory: String, _ database: String) async throws -> Void) async throws {
        let temporary = try TemporaryDirectory("report")
        defer { temporary.remove() }
        let directory = temporary.path
        let database = directory + "/records.sqlite"
        let store = try await SQLiteRecordStore(path: database)
        for record in ShiftRecords.records() {
            try await store.append(record)
        }
        try await body(directory, database)
    }

    @Test func thePageShowsTheShiftAndHonoursTheFilters() async throws {
        try await Self.withShiftDatabase { _, database in
            let all = try await ZTProvProcess.run(["report", "--format", "html", "--db", database])
            #expect(all.exitStatus == 0, "\(all)")
            #expect(all.standardOutput.hasPrefix("<!DOCTYPE html>"))
            #expect(all.standardOutput.contains("data-check=\"yield\">87.5%<"))
            #expect(all.standardOutput.contains("data-check=\"pareto:1:code\">ble.link-lost<"))
            #expect(all.standardOutput.contains("All stations · all time · every attempt · records from \(database)"))
            // The hint comes from the error catalogue, through the executable's wiring.
            #expect(
                all.standardOutput.contains("data-check=\"pareto:4:hint\">")
                    && !all.standardOutput.contains("Unknown code."))
            #expect(all.standardError.contains("Exported 29 attempt(s)"))

            let station = try await ZTProvProcess.run([
                "report", "--format", "html", "--station", "line-1", "--final-only", "--db", database,
            ])
            #expect(station.exitStatus == 0, "\(station)")
            #expect(station.standardOutput.contains("data-check=\"attempts\">18<"))
            #expect(station.standardOutput.contains("data-check=\"yield\">83.3%<"))
            #expect(!station.standardOutput.contains("line-2"))
            #expect(station.standardOutput.contains("Station line-1 · all time · final attempts only"))

            let recent = try await ZTProvProcess.run(["report", "--format", "html", "--since", "2d", "--db", database])
            #expect(recent.exitStatus == 0, "\(recent)")
            #expect(recent.standardOutput.contains("No provisioning records match this report."))
            #expect(recent.standardOutput.contains("</html>"))
        }
    }

    @Test func anEmptyDatabaseIsAPageSayingSo() async throws {
        let temporary = try TemporaryDirectory("report")
        defer { temporary.remove() }
        let directory = temporary.path
        let database = directory + "/records.sqlite"
        _ = try await SQLiteRecordStore(path: database)
        let outcome = try await ZTProvProcess.run(["report", "--format", "html", "--db", database])
        #expect(outcome.exitStatus == 0, "\(outcome)")
        #expect(outcome.standardOutput.contains("data-check=\"empty\">No provisioning records match this report.<"))
    }

    @Test(.requiresTools("chromium"))
    func chromiumShowsTheShiftsNumbersWithoutConsoleErrors() async throws {
        try await Self.withShiftDatabase { directory, database in
            let outcome = try await ZTProvProcess.run(["report", "--format", "html", "--db", database])
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let page = directory + "/shift.html"
            try outcome.standardOutput.write(toFile: page, atomically: true, encoding: .utf8)

            let seen = try await Self.inChromium(page, screenshot: directory + "/shift.png")
            #expect(seen.console.isEmpty, "console messages: \(seen.console)")
            let expected = [
                "yield": "87.5%", "provisioned": "21", "settled": "24", "attempts": "29", "failed-attempts": "8",
                "station:line-1:yield": "83.3%", "station:line-2:first-pass": "83.3%",
                "adapter:line-1 / hci1:units": "8", "pareto:1:code": "ble.link-lost", "pareto:1:attempts": "5",
                "pareto:2:code": "ble.device-not-found", "pareto:4:cumulative": "100.0%",
                "step:connect:p50": "530 ms", "step:connect:p90": "650 ms", "step:join:max": "10.00 s",
                "firmware:BluFi:1.4:attempts": "15", "slowest:1:unit": "b5", "slowest:1:time": "13.15 s",
                "peak-slot": "3",
            ]
            for (key, value) in expected {
                #expect(seen.checks[key] == value, "\(key)")
            }
            #expect(seen.checks["pareto:1:hint"]?.isEmpty == false)
            #expect(seen.paintedFraction > 0.05, "the page rendered (almost) blank: \(seen)")
            #expect(seen.colours > 50, "the page rendered without charts or text: \(seen)")
        }
    }

    /// Generated hostile text in every field a device or scanner fills: the page loads with no
    /// console message (the content security policy would report any script, handler or download an
    /// escape let through) and the DOM holds only the page's own elements.
    @Test(.requiresTools("chromium"))
    func hostileRecordTextStaysInertInChromium() async throws {
        let temporary = try TemporaryDirectory("report")
        defer { temporary.remove() }
        let directory = temporary.path
        var random = SplitMix64(seed: 19)
        let database = directory + "/records.sqlite"
        let store = try await SQLiteRecordStore(path: database)
        for (index, var record) in ShiftRecords.records().prefix(16).enumerated() {
            record.deviceKey = index == 15 ? "<script>console.error('escaped')</script>" : HostileText.next(&random)
            record.station = HostileText.next(&random)
            record.adapter = HostileText.next(&random)
            record.deviceID = HostileText.next(&random)
            record.message = HostileText.next(&random)
            record.code = index.isMultiple(of: 4) ? HostileText.next(&random) : record.code
            record.firmware.device = HostileText.next(&random)
            record.steps[0].name = HostileText.next(&random)
            try await store.append(record)
        }
        let outcome = try await ZTProvProcess.run(["report", "--format", "html", "--db", database])
        #expect(outcome.exitStatus == 0, "\(outcome)")
        let page = directory + "/hostile.html"
        try outcome.standardOutput.write(toFile: page, atomically: true, encoding: .utf8)

        let seen = try await Self.inChromium(page, screenshot: nil)
        #expect(seen.console.isEmpty, "console messages: \(seen.console)")
        #expect(seen.elements.isSubset(of: Self.pageElements), "\(seen.elements.subtracting(Self.pageElements))")
        // Unit 15 (b2, never found: scan 5 s) is the slowest.
        #expect(seen.checks["slowest:1:unit"] == "<script>console.error('escaped')</script>")
    }

    /// The elements the page is made of (the parser adds none for a well-formed page).
    static let pageElements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p", "section", "div", "span",
        "table", "thead", "tbody", "tr", "th", "td", "figure", "figcaption", "svg", "path", "rect", "text",
        "polyline", "circle", "line", "ul", "li",
    ]

    /// The checker itself: a blank page and a page that logs to the console are both caught.
    @Test(.requiresTools("chromium"))
    func theChromiumCheckSeesBlankPagesAndConsoleMessages() async throws {
        let temporary = try TemporaryDirectory("report")
        defer { temporary.remove() }
        let directory = temporary.path
        let page = directory + "/blank.html"
        try "<!DOCTYPE html><html><body><script>console.error('broken')</script></body></html>"
            .write(toFile: page, atomically: true, encoding: .utf8)
        let seen = try await Self.inChromium(page, screenshot: directory + "/blank.png")
        #expect(seen.console.contains { $0.contains("broken") }, "\(seen)")
        #expect(seen.elements.contains("script"))
        #expect(seen.paintedFraction < 0.001, "\(seen)")
    }

    /// What `Tests/Browser/page_in_chromium.py` reported about one page.
    struct SeenPage: Sendable, CustomStringConvertible {
        var console: [String]
        var elements: Set<String>
        var checks: [String: String]
        var paintedFraction: Double
        var colours: Int

        var description: String { "painted \(paintedFraction), \(colours) colours, console \(console)" }
    }

    /// Runs `Tests/Browser/page_in_chromium.py` on `page`, with a screenshot when given a path for it.
    static func inChromium(_ page: String, screenshot: String?) async throws -> SeenPage {
        var launch = ProcessLaunch(
            RepositoryLayout.python,
            [RepositoryLayout.root.appending(path: "Tests/Browser/page_in_chromium.py").path, page]
                + (screenshot.map { [$0] } ?? []))
        launch.deadline = .seconds(90)
        let outcome = try await launch.run()
        try #require(outcome.succeeded, "\(outcome)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        return SeenPage(
            console: object["console"] as? [String] ?? ["(no console list)"],
            elements: Set(object["elements"] as? [String] ?? []),
            checks: object["checks"] as? [String: String] ?? [:],
            paintedFraction: object["painted_fraction"] as? Double ?? 0, colours: object["colours"] as? Int ?? 0)
    }
}
