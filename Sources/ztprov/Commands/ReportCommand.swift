import ArgumentParser
import FoundationEssentials
import JSONWriting
import Provisioning
import Records

#if canImport(Glibc)
    import Glibc
#endif

/// `ztprov report`: the provisioning records as CSV or JSON Lines on stdout, as a shift report page, or
/// served live (`--serve`) with metrics for a scraper.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract:
            "Export provisioning records as CSV or JSON Lines, write a shift report page (HTML), or serve it live.",
        discussion: """
            Reads the records database the batch commands write (--db, else $ZTPROV_DB, else \
            $XDG_DATA_HOME/ztprov/records.sqlite) and writes every attempt to stdout, oldest first. \
            CSV follows RFC 4180 with a header row; --format json writes JSON Lines, one object per \
            attempt per line, with the same snake_case columns. Timestamps are ISO 8601 in UTC; steps \
            read name=ms;name=ms in CSV. Records never hold passwords, PoPs or tokens.

            --format html writes one self-contained HTML page instead: yield per station and per \
            adapter, failures by error code (a Pareto, with what to do about each code), throughput \
            over time, step-time spread (median, 90th percentile), firmware versions seen and the \
            slowest units. It needs no network and no script to show, and prints; every text that came \
            from a device or a scanner is escaped. With no matching records it says so.

            --serve ADDRESS:PORT serves that page live at / (it updates within 2 s of a record landing, \
            or every 5 s without JavaScript) with the units in progress, stations gone quiet \
            (--quiet-after), units per hour and yield per station and hour; /metrics has Prometheus \
            metrics of every record. It only reads the database, and runs until Ctrl-C. It listens on \
            loopback unless given another address and --serve-beyond-loopback.

            Examples:
              ztprov report --format csv --since 8h > shift.csv
              ztprov report --format json --station line-2 --final-only --since 2024-05-01
              ztprov report --format csv --db postgresql://ztprov@db.factory.lan/ztprov
              ztprov report --format html --since 8h --final-only > shift.html
              ztprov report --serve 127.0.0.1:9464 --since 8h --db postgresql://ztprov@db.factory.lan/ztprov
            """
    )

    @Option(
        help: ArgumentHelp(
            "Output format: csv, json (JSON Lines), or html (a shift report page); --json alone means json.",
            valueName: "format")
    )
    var format: Format?

    @Option(
        help: ArgumentHelp(
            "Only attempts started since a date (2024-05-01, UTC), a date-time (2024-05-01T08:00:00Z) or a "
                + "span back from now (30m, 8h, 2d).",
            valueName: "when"),
        transform: { try ReportSince($0) }
    )
    var since: ReportSince?

    @Option(help: ArgumentHelp("Only attempts made by this station.", valueName: "name"))
    var station: String?

    @Flag(help: "Only the attempt that settled each device (its success, or the failure not retried).")
    var finalOnly = false

    @Option(
        help: ArgumentHelp(
            "Serve the live shift page and Prometheus metrics at ADDRESS:PORT (127.0.0.1:9464; port 0 picks one) "
                + "instead of exporting.",
            valueName: "address:port")
    )
    var serve: ServeAddress?

    @Flag(help: "Let --serve listen on an address other hosts can reach: they read every record, with no login.")
    var serveBeyondLoopback = false

    @Option(
        help: ArgumentHelp(
            "With --serve: a station with no record for this many minutes is shown gone quiet.", valueName: "minutes"))
    var quietAfter = 10

    @OptionGroup(title: "Records")
    var records: RecordStoreOptions

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if output.json, let format, format != .json {
            throw ValidationError(
                "--json writes the records as JSON Lines; it cannot go with --format \(format.rawValue).")
        }
        if let serve {
            if format != nil || output.json {
                throw ValidationError("--serve shows the page and the metrics; it cannot go with --format or --json.")
            }
            if !serve.isLoopback, !serveBeyondLoopback {
                throw ValidationError(
                    "--serve \(serve.authority) is not a loopback address: every host that reaches it reads the "
                        + "records. Add --serve-beyond-loopback to serve it anyway.")
            }
            if quietAfter < 1 { throw ValidationError("--quiet-after takes a whole number of minutes, at least 1.") }
        } else if format == nil, !output.json {
            throw ValidationError("Missing --format: give --format csv, --format json or --format html.")
        }
    }

    /// The format asked for: `--format`, or JSON Lines for `--json` alone.
    private var chosenFormat: Format { format ?? .json }

    func run() async throws {
        let query = RecordQuery(since: since?.start(now: Date()), station: station)
        let location = try records.location()
        if let serve {
            try await serveLive(at: serve, location: location, query: query)
            return
        }
        let render = renderer(location: location, query: query)
        // The export is the whole of stdout: --json chose its format, and adds no result line to it.
        var plain = output
        plain.json = false
        try await CommandRunner.run(plain, timeout: .seconds(300), interrupted: "Interrupted: stopping the export") {
            [finalOnly] (context) async throws(ProvisioningError) -> [JSONField] in
            let store = try await Self.openForReading(location)
            let found = try await Self.reading(location) {
                try await store.records(matching: query).filter { !finalOnly || $0.isFinal }
            }
            let rendered = render(found)
            // CSV keeps values byte for byte; on a terminal they are made printable first.
            Console.write(isatty(STDOUT_FILENO) == 1 ? TerminalText.lines(rendered) : rendered, to: .standardOutput)
            context.console.progress("Exported \(found.count) attempt(s) from \(location)")
            return []
        }
    }
}

extension ReportCommand {
    /// The store at `location`, opened read-only; a mistyped --db must not export nothing and leave a new
    /// empty database behind.
    private static func openForReading(_ location: RecordStoreLocation) async throws(ProvisioningError)
        -> any ProvisioningRecordStore
    {
        if case .sqlite(let path) = location, !FileManager.default.fileExists(atPath: path) {
            throw .records(
                RecordStoreError(.unavailable, "there is no file at \(path)"), at: location.place, while: .reading)
        }
        return try await openRecordStore(location, readOnly: true)
    }

    /// Runs `body`, a read of the store at `location`; what it throws becomes the records error it is.
    @discardableResult
    private static func reading<Value>(_ location: RecordStoreLocation, _ body: () async throws -> Value)
        async throws(ProvisioningError) -> Value
    {
        do {
            return try await body()
        } catch let error as RecordStoreError {
            throw .records(error, at: location.place, while: .reading)
        } catch {
            throw .records(RecordStoreError(.failed, "\(error)"), at: location.place, while: .reading)
        }
    }

    /// `--serve`: reads every record once, then serves the page and the metrics until interrupted.
    private func serveLive(at address: ServeAddress, location: RecordStoreLocation, query: RecordQuery)
        async throws
    {
        let scope = scopeText(location: location, query: query)
        let quiet = Duration.seconds(quietAfter * 60)
        var plain = output
        plain.json = false
        // A server has no deadline of its own: it runs until interrupted.
        try await CommandRunner.run(
            plain, timeout: .seconds(Int64.max / 2), interrupted: "Interrupted: stopping the server"
        ) {
            [finalOnly, serveBeyondLoopback] (context) async throws(ProvisioningError) -> [JSONField] in
            guard let feed = try await Self.openForReading(location) as? any RecordFeed else {
                throw .records(
                    RecordStoreError(.failed, "the store cannot be read in order"), at: location.place, while: .reading)
            }
            let line = LiveLine(
                feed: feed, quietAfter: quiet,
                inScope: { record in
                    (query.since.map { record.startedAt >= $0 } ?? true)
                        && (query.station.map { record.station == $0 } ?? true) && (!finalOnly || record.isFinal)
                },
                render: { records, live in
                    HTMLShiftReport(scope: scope, generatedAt: Date(), live: live) { ErrorCode(rawValue: $0)?.hint }
                        .html(records)
                })
            try await Self.reading(location) { try await line.catchUp() }
            if serveBeyondLoopback && !address.isLoopback {
                context.console.warning(
                    "Serving beyond loopback: every host that reaches \(address.authority) reads the records, with no login."
                )
            }
            try await LineServer.serve(line, at: address, watching: location, context: context)
            return []
        }
    }

    /// What the page is about: the filters and the database, said in words.
    private func scopeText(location: RecordStoreLocation, query: RecordQuery) -> String {
        [
            query.station.map { "Station \($0)" } ?? "All stations",
            query.since.map { "since \(ReportFormat.minute($0))" } ?? "all time",
            finalOnly ? "final attempts only" : "every attempt",
            "records from \(location)",
        ].joined(separator: " \u{00B7} ")
    }

    /// The `--format` values.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv
        case json
        case html
    }

    /// What turns the records found into the output text.
    private func renderer(location: RecordStoreLocation, query: RecordQuery)
        -> @Sendable ([ProvisioningRecord]) -> String
    {
        switch chosenFormat {
        case .csv: return RecordExport(.csv).text
        case .json: return RecordExport(.json).text
        case .html:
            let page = HTMLShiftReport(scope: scopeText(location: location, query: query), generatedAt: Date()) {
                ErrorCode(rawValue: $0)?.hint
            }
            return page.html
        }
    }
}
