import Foundation
import FoundationXML
import Records
import TestSupport
import Testing

/// The shift report page: the numbers it shows, the hints it gives, and that no record text can
/// break out of it.
@Suite struct HTMLShiftReportTests {
    static let hints: [String: String] = [
        "ble.link-lost": "Keep the unit within range & retry.", "timeout": "Check the fixture's <power>.",
    ]
    static let page = HTMLShiftReport(
        scope: "All stations", generatedAt: ShiftRecords.start + 86_400, hint: { hints[$0] })

    @Test func theShownNumbersAreTheShiftsNumbers() throws {
        let shown = Self.checks(Self.page.html(ShiftRecords.records()))
        let expected = [
            "yield": "87.5%", "provisioned": "21", "settled": "24", "attempts": "29", "failed-attempts": "8",
            "station:line-1:units": "18", "station:line-1:provisioned": "15", "station:line-1:attempts": "22",
            "station:line-1:first-pass": "72.2%", "station:line-1:yield": "83.3%", "station:line-2:yield": "100.0%",
            "adapter:line-1 / hci0:yield": "80.0%", "adapter:line-1 / hci1:yield": "87.5%",
            "adapter:line-1 / hci1:first-pass": "75.0%", "adapter:line-2 / hci0:attempts": "7",
            "pareto:1:code": "ble.link-lost", "pareto:1:attempts": "5", "pareto:1:lost": "1",
            "pareto:1:cumulative": "62.5%", "pareto:2:code": "ble.device-not-found", "pareto:3:cumulative": "87.5%",
            "pareto:4:code": "timeout", "pareto:4:lost": "0",
            "step:connect:runs": "28", "step:connect:p50": "530 ms", "step:connect:p90": "650 ms",
            "step:scan:max": "5.00 s", "step:join:max": "10.00 s", "step:handoff:p50": "80 ms",
            "firmware:BluFi:1.3:yield": "80.0%", "firmware:Device:2.1.0:units": "6",
            "slowest:1:unit": "b5", "slowest:1:time": "13.15 s", "slowest:2:unit": "b2", "slowest:3:time": "3.85 s",
            "slot": "1 min", "peak-slot": "3",
            "security:blufi-none:units": "8", "security:blufi-v2:units": "7",
            "security:blufi-v2+encrypted-link:units": "6", "plaintext": "8", "without-proof": "13",
        ]
        for (key, value) in expected {
            #expect(shown[key] == value, "\(key)")
        }
    }

    @Test func everyCodeInTheParetoCarriesItsHintEscaped() {
        let shown = Self.checks(Self.page.html(ShiftRecords.records()))
        #expect(shown["pareto:1:hint"] == "Keep the unit within range &amp; retry.")
        #expect(shown["pareto:4:hint"] == "Check the fixture&#39;s &lt;power&gt;.")
        #expect(shown["pareto:2:hint"] == "Unknown code.")
    }

    @Test func noRecordsIsAPageThatSaysSo() throws {
        let html = Self.page.html([])
        #expect(Self.checks(html)["empty"] == "No provisioning records match this report.")
        #expect(!html.contains("<table"))
        _ = try Self.parsed(html)
    }

    @Test func thePageNeedsNothingFromOutside() throws {
        let html = Self.page.html(ShiftRecords.records())
        let document = try Self.parsed(html)
        #expect(!document.elements.contains("script") && !document.elements.contains("link"))
        #expect(!document.elements.contains("img") && !document.elements.contains("iframe"))
        #expect(!html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("://"))
        #expect(html.contains("default-src 'none'"))
        #expect(html.contains("@media print"))
    }

    /// Generated records whose every text field is hostile: markup, quotes, ampersands, control
    /// characters, non-ASCII, very long.
    @Test(arguments: 0..<8)
    func hostileRecordTextStaysText(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let records = (0..<12).map { index in
            var record = ShiftRecords.records()[index]
            record.deviceKey = index == 0 ? "<script>alert(1)</script>" : HostileText.next(&random)
            record.station = HostileText.next(&random)
            record.adapter = HostileText.next(&random)
            record.deviceID = HostileText.next(&random)
            record.message = HostileText.next(&random)
            record.code = index % 3 == 0 ? HostileText.next(&random) : record.code
            record.firmware.bluFi = HostileText.next(&random)
            record.steps[0].name = HostileText.next(&random)
            return record
        }
        let html = HTMLShiftReport(scope: HostileText.next(&random), generatedAt: ShiftRecords.start) { _ in
            "<script>alert('hint')</script>"
        }.html(records)
        let document = try Self.parsed(html)
        #expect(
            document.elements.isSubset(of: Self.pageElements), "\(document.elements.subtracting(Self.pageElements))")
        #expect(
            document.attributes.isSubset(of: Self.pageAttributes),
            "\(document.attributes.subtracting(Self.pageAttributes))")
        #expect(!html.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(document.text.contains("<script>alert('hint')</script>"))
        #expect(document.text.contains("<script>alert(1)</script>"))
    }

    @Test func longTextIsCut() {
        var record = ShiftRecords.records()[0]
        record.deviceKey = String(repeating: "Ω", count: 5000)
        let html = Self.page.html([record])
        #expect(html.contains(String(repeating: "Ω", count: 159) + "\u{2026}"))
        #expect(!html.contains(String(repeating: "Ω", count: 161)))
    }

    /// However long the values a record holds, the page grows by a bounded amount per record: no value
    /// is copied in full, shown or hidden in an attribute.
    @Test func aLongValueAnywhereAddsABoundedAmountToThePage() {
        var random = SplitMix64(seed: 0x1_0000_0015)
        let fields: [WritableKeyPath<ProvisioningRecord, String>] = [\.station, \.adapter, \.deviceKey, \.code]
        let optionalFields: [WritableKeyPath<ProvisioningRecord, String?>] = [
            \.deviceID, \.address, \.message, \.security, \.firmware.bluFi, \.firmware.device, \.firmware.protocomm,
        ]
        let baseline = Self.page.html(ShiftRecords.records()).utf8.count
        for _ in 0..<12 {
            var records = ShiftRecords.records()
            for index in (0..<3).map({ _ in random.below(records.count) }) {
                let long = String(repeating: HostileText.next(&random), count: 1 + 200_000 / 3000)
                switch random.below(3) {
                case 0: records[index][keyPath: fields[random.below(fields.count)]] = long
                case 1: records[index][keyPath: optionalFields[random.below(optionalFields.count)]] = long
                default:
                    records[index].steps.append(RecordedStep(name: long, milliseconds: random.below(10_000)))
                }
            }
            let size = Self.page.html(records).utf8.count
            #expect(size < baseline + 3 * 20_000, "\(size) bytes")
        }
    }

    static let pageElements: Set<String> = [
        "html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "p", "section", "div", "span",
        "table", "thead", "tbody", "tr", "th", "td", "figure", "figcaption", "svg", "path", "rect", "text",
        "polyline", "circle", "line", "ul", "li",
    ]
    static let pageAttributes: Set<String> = [
        "lang", "charset", "http-equiv", "content", "name", "class", "data-check", "style", "xmlns", "viewBox",
        "role", "aria-label", "x", "y", "width", "height", "fill", "d", "stroke", "stroke-width", "points", "cx",
        "cy", "r", "x1", "y1", "x2", "y2", "text-anchor", "transform",
    ]

    /// The `data-check` values of the page, by name, as the HTML spells them.
    static func checks(_ html: String) -> [String: String] {
        let pattern = /data-check="([^"]*)">([^<]*)</
        return Dictionary(
            html.matches(of: pattern).map { (String($0.output.1), String($0.output.2)) }, uniquingKeysWith: { $1 })
    }

    /// The page read as XML: it is well-formed, and says which elements and attributes it holds.
    static func parsed(_ html: String) throws -> PageOutline {
        let parser = XMLParser(data: Data(html.utf8))
        let outline = PageOutline()
        parser.delegate = outline
        let parsedWell = parser.parse()
        try #require(parsedWell, "not well-formed: \(String(describing: parser.parserError))")
        return outline
    }

    final class PageOutline: NSObject, XMLParserDelegate {
        var elements: Set<String> = []
        var attributes: Set<String> = []
        var text = ""

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            elements.insert(elementName)
            self.attributes.formUnion(attributes.keys)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }
    }
}
