import FoundationEssentials
import Records

/// The line as `report --serve` shows it: each record read once, in the order it was stored, counted into
/// the metrics and, when in the report's scope, kept for the page. Page and metrics are rendered at most
/// once per change, so a scrape or a page view between records reads nothing from the database.
actor LiveLine {
    /// How many records one read brings; the first catch-up on a large database reads in such steps.
    static let readLimit = 10_000
    /// How long a rendered page stays current without a new record (the quiet stations depend on the clock).
    static let pageLifetime: Duration = .seconds(1)

    private let feed: any RecordFeed
    private let inScope: @Sendable (ProvisioningRecord) -> Bool
    private let render: @Sendable ([ProvisioningRecord], LivePage) -> String
    private let quietAfter: Duration
    /// The number of the newest record read.
    private(set) var version: Int64 = 0
    private var metrics = LineMetrics()
    private var records: [ProvisioningRecord] = []
    private var page: (version: Int64, at: ContinuousClock.Instant, html: String)?
    private var metricsText: (version: Int64, text: String)?

    init(
        feed: any RecordFeed, quietAfter: Duration, inScope: @escaping @Sendable (ProvisioningRecord) -> Bool,
        render: @escaping @Sendable ([ProvisioningRecord], LivePage) -> String
    ) {
        self.feed = feed
        self.quietAfter = quietAfter
        self.inScope = inScope
        self.render = render
    }

    /// Reads the records stored since the last read; true when there were any.
    @discardableResult
    func catchUp() async throws -> Bool {
        var moved = false
        while true {
            let read = try await feed.records(after: version, limit: Self.readLimit)
            for numbered in read {
                metrics.add(numbered.record)
                if inScope(numbered.record) { records.append(numbered.record) }
                version = numbered.number
            }
            moved = moved || !read.isEmpty
            if read.count < Self.readLimit { return moved }
        }
    }

    /// The page for the records read so far.
    func pageHTML() -> String {
        if let page, page.version == version, page.at.duration(to: .now) < Self.pageLifetime { return page.html }
        let now = Date()
        let html = render(
            records, LivePage(version: version, activity: LineActivity(records, now: now, quietAfter: quietAfter)))
        page = (version, .now, html)
        return html
    }

    /// The metrics for every record read so far.
    func metricsExposition() -> String {
        if let metricsText, metricsText.version == version { return metricsText.text }
        let text = metrics.text
        metricsText = (version, text)
        return text
    }
}
