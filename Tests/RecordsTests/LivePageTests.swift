import CryptoPrimitives
import Foundation
import Records
import TestSupport
import Testing

/// The live page `report --serve` shows: today's page with the line now, one script the content security
/// policy names by its hash, and a reload without scripts.
@Suite struct LivePageTests {
    static let now = ShiftRecords.start + 3 * 3600

    static func page(_ records: [ProvisioningRecord], version: Int64 = 29) -> String {
        let live = LivePage(
            version: version, activity: LineActivity(records, now: now, quietAfter: .seconds(600)))
        return HTMLShiftReport(scope: "All stations", generatedAt: now, live: live) { _ in nil }.html(records)
    }

    @Test func thePagesOneScriptIsTheOneItsPolicyAllows() throws {
        let html = Self.page(ShiftRecords.records())
        let script = try #require(html.firstMatch(of: /<script>(.*)<\/script>/)?.output.1)
        let hash = Data(Digest.sha256(Array(script.utf8))).base64EncodedString()
        #expect(html.contains("script-src 'sha256-\(hash)'; connect-src 'self'"))
        #expect(html.contains("<noscript><meta http-equiv=\"refresh\" content=\"5\"/></noscript>"))
        #expect(html.contains("<body data-version=\"29\">"))
        // Today's page has neither.
        let today = HTMLShiftReportTests.page.html(ShiftRecords.records())
        #expect(!today.contains("<script") && !today.contains("refresh") && today.contains("default-src 'none'"))
    }

    @Test func theLineNowShowsUnitsInProgressQuietStationsRatesAndHourlyYields() throws {
        var records = ShiftRecords.records()
        // a7's last attempt was not final: a retry is due.
        let index = try #require(records.lastIndex { $0.deviceKey == "a7" })
        records[index].isFinal = false
        var recent = records[0]
        recent.station = "line-3"
        recent.batchID = "shift-2"
        recent.startedAt = Self.now - 60
        recent.finishedAt = Self.now - 58
        records.append(recent)
        let shown = HTMLShiftReportTests.checks(Self.page(records))
        #expect(shown["in-progress"] == "1")
        #expect(shown["in-progress:1:unit"] == "a7")
        #expect(shown["quiet:line-1"] == "line-1" && shown["quiet:line-2"] == "line-2")
        #expect(shown["quiet:line-3"] == nil)
        #expect(shown["rate:line-3:provisioned"] == "1")
        #expect(shown["rate:Line:provisioned"] == "22")
        #expect(shown["hour:line-1:08:00:units"] == "17")
        #expect(shown["hour:line-2:08:00:yield"] == "100.0%")
    }

    @Test func theLivePageIsWellFormedWithHostileRecords() throws {
        var random = SplitMix64(seed: 23)
        let records = ShiftRecords.records().prefix(12).map { record in
            var record = record
            record.station = HostileText.next(&random)
            record.deviceKey = HostileText.next(&random)
            record.isFinal = false
            return record
        }
        let outline = try HTMLShiftReportTests.parsed(Self.page(Array(records)))
        let allowed: Set<String> = [
            "html", "head", "meta", "title", "style", "noscript", "script", "body", "header", "h1", "h2", "p",
            "section", "div", "span", "table", "thead", "tbody", "tr", "th", "td", "figure", "figcaption", "svg",
            "path", "rect", "text", "polyline", "circle", "line", "ul", "li",
        ]
        #expect(outline.elements.isSubset(of: allowed), "\(outline.elements.subtracting(allowed))")
        #expect(
            outline.text.contains("<script>alert(1)</script>") || !records.contains { $0.station.contains("<script>") })
    }
}
