import CLibPQ
import DescriptorWaits
import FoundationEssentials
import Records
import StringEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection; used only from its store's executor, which is why it needs no lock.
///
/// Every value travels as a text parameter of `PQexecParams`, never inside the SQL text.
final class LibPQConnection {
    private var handle: OpaquePointer?

    /// Connects with `url`, which libpq parses; `connectTimeout` applies unless the URL sets its own.
    ///
    /// The connection is driven with `PQconnectPoll` rather than the blocking `PQconnectdb`, so a cancelled
    /// task (Ctrl-C, SIGTERM) stops waiting at once even when the URL's `connect_timeout=0` asks libpq to wait
    /// forever.
    func connect(url: String, connectTimeout: Duration) throws(RecordStoreError) {
        if let failure = CLibPQ_load() {
            throw RecordStoreError(.unavailable, "cannot load libpq (install libpq5): \(String(cString: failure))")
        }
        // With expand_dbname the URL's own settings override the ones listed before it.
        let settings = [
            ("connect_timeout", String(max(2, connectTimeout.components.seconds))), ("application_name", "ztprov"),
            ("dbname", url),
        ]
        let keywords = settings.map { strdup($0.0) } + [nil]
        let values = settings.map { strdup($0.1) } + [nil]
        defer { (keywords + values).forEach { free($0) } }
        guard
            let connection = PQconnectStartParams(
                keywords.map { UnsafePointer($0) }, values.map { UnsafePointer($0) }, 1)
        else { throw RecordStoreError(.unavailable, "libpq could not allocate a connection") }
        do throws(RecordStoreError) {
            try Self.complete(connection, within: Self.timeout(of: connection))
        } catch {
            PQfinish(connection)
            throw error
        }
        handle = connection
        // libpq prints server notices to stderr by default; the tool decides what it prints.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    /// The connection's `connect_timeout` as libpq resolved it (nil for 0: no limit).
    private static func timeout(of connection: OpaquePointer) -> Duration? {
        guard let options = PQconninfo(connection) else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "connect_timeout", let value = option.pointee.val,
                let seconds = Int(String(cString: value).trimmingSpaces()), seconds > 0
            {
                return .seconds(max(2, seconds))
            }
            option += 1
        }
        return nil
    }

    /// Drives `PQconnectPoll` until the connection is up, failed, timed out, or the task is cancelled (at
    /// once inside ``CancellationWake/cancellable(isolation:_:)``).
    private static func complete(_ connection: OpaquePointer, within timeout: Duration?) throws(RecordStoreError) {
        let deadline = timeout.map { ContinuousClock.now + $0 } ?? Self.unbounded
        var status = PGRES_POLLING_WRITING
        while PQstatus(connection) != CONNECTION_BAD {
            switch status {
            case PGRES_POLLING_OK: return
            case PGRES_POLLING_FAILED: break
            default:
                let events = Int16(status == PGRES_POLLING_READING ? POLLIN : POLLOUT)
                switch DescriptorReadiness.wait(for: events, on: PQsocket(connection), until: deadline) {
                case .ready: status = PQconnectPoll(connection)
                case .cancelled: throw RecordStoreError(.unavailable, "interrupted while connecting")
                case .deadlinePassed: throw RecordStoreError(.unavailable, "timed out connecting to the server")
                case .pollFailed(let code):
                    throw RecordStoreError(
                        .unavailable, "cannot wait for the server: \(String(cString: strerror(code)))")
                }
                continue
            }
            break
        }
        throw RecordStoreError(.unavailable, message(PQerrorMessage(connection)))
    }

    /// A deadline for a wait that has none of its own (`connect_timeout=0`, a statement before Ctrl-C).
    private static var unbounded: ContinuousClock.Instant { .now + .seconds(365 * 86_400) }

    /// Runs `sql` with `parameters` as $1, $2, … and returns the rows as text (nil for NULL).
    ///
    /// Sent with `PQsendQueryParams` and awaited beside the task's cancellation, so Ctrl-C or SIGTERM ends a
    /// slow statement (a lock wait, a busy server): once the task is cancelled the statement has ``cancellationGrace``
    /// to finish (the record of an interrupted attempt is written then) before the server is asked to
    /// cancel it with `PQcancel`.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(RecordStoreError) -> [[String?]] {
        guard let handle else { throw RecordStoreError(.unavailable, "not connected") }
        // A server restart between two attempts breaks the connection; one reset brings it back.
        if PQstatus(handle) != CONNECTION_OK { PQreset(handle) }
        let values = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { values.forEach { free($0) } }
        guard
            PQsendQueryParams(handle, sql, Int32(values.count), nil, values.map { UnsafePointer($0) }, nil, nil, 0) == 1
        else { throw error(nil, on: handle) }
        try awaitResult(on: handle)
        let result = Self.takeResult(of: handle)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK: return []
        case PGRES_TUPLES_OK: return Self.rows(of: result)
        default: throw error(result, on: handle)
        }
    }

    /// Waits at most `timeout` for a notification on a channel the connection listens on (`LISTEN`); true
    /// when one or more arrived (all are taken).
    func awaitNotification(within timeout: Duration) throws(RecordStoreError) -> Bool {
        guard let handle else { throw RecordStoreError(.unavailable, "not connected") }
        if Self.takeNotifications(of: handle) { return true }
        let outcome = DescriptorReadiness.wait(for: Int16(POLLIN), on: PQsocket(handle), until: .now + timeout)
        if outcome == .ready, PQconsumeInput(handle) == 0 { throw error(nil, on: handle) }
        return Self.takeNotifications(of: handle)
    }

    private static func takeNotifications(of handle: OpaquePointer) -> Bool {
        var arrived = false
        while let notification = PQnotifies(handle) {
            PQfreemem(notification)
            arrived = true
        }
        return arrived
    }

    /// How long a statement may still run once the task is cancelled before it is cancelled too.
    static let cancellationGrace: Duration = .milliseconds(500)

    /// Waits until the statement's result is in; once the task is cancelled, for ``cancellationGrace`` more.
    private func awaitResult(on handle: OpaquePointer) throws(RecordStoreError) {
        var graceEnds: ContinuousClock.Instant?
        while PQisBusy(handle) == 1 {
            let outcome = DescriptorReadiness.wait(
                for: Int16(POLLIN), on: PQsocket(handle), until: graceEnds ?? Self.unbounded,
                noticingCancellation: graceEnds == nil)
            switch outcome {
            case .ready:
                if PQconsumeInput(handle) == 0 { return }
            case .cancelled:
                graceEnds = .now + Self.cancellationGrace
            case .deadlinePassed:
                Self.cancel(handle)
                throw RecordStoreError(.unavailable, "interrupted while waiting for the database")
            case .pollFailed:
                return
            }
        }
    }

    /// Asks the server to cancel the running statement and drops what it still sends, giving up after
    /// a second (the connection is then finished with the store).
    private static func cancel(_ handle: OpaquePointer) {
        if let cancel = PQgetCancel(handle) {
            var buffer = [CChar](repeating: 0, count: 256)
            _ = PQcancel(cancel, &buffer, Int32(buffer.count))
            PQfreeCancel(cancel)
        }
        let deadline = ContinuousClock.now + .seconds(1)
        while PQisBusy(handle) == 1,
            DescriptorReadiness.wait(
                for: Int16(POLLIN), on: PQsocket(handle), until: deadline, noticingCancellation: false) == .ready
        {
            if PQconsumeInput(handle) == 0 { return }
        }
        while PQisBusy(handle) == 0, let result = PQgetResult(handle) { PQclear(result) }
    }

    /// The statement's result: the first failed one if any failed, else the last; the rest are cleared.
    private static func takeResult(of handle: OpaquePointer) -> OpaquePointer? {
        var kept: OpaquePointer?
        while let result = PQgetResult(handle) {
            if let kept, !succeeded(kept) {
                PQclear(result)
                continue
            }
            PQclear(kept)
            kept = result
        }
        return kept
    }

    private static func succeeded(_ result: OpaquePointer) -> Bool {
        PQresultStatus(result) == PGRES_COMMAND_OK || PQresultStatus(result) == PGRES_TUPLES_OK
    }

    private static func rows(of result: OpaquePointer?) -> [[String?]] {
        (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// The error for a failed statement: a lost connection or a refused login or table is
    /// `.unavailable`, anything else `.failed`.
    private func error(_ result: OpaquePointer?, on handle: OpaquePointer) -> RecordStoreError {
        let detail = Self.message(result.map { PQresultErrorMessage($0) } ?? PQerrorMessage(handle))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) }
        let unreachable = PQstatus(handle) != CONNECTION_OK || state.map(Self.isAccessProblem) ?? true
        return RecordStoreError(unreachable ? .unavailable : .failed, detail)
    }

    /// SQLSTATE classes 08 (connection), 28 (authorization), 3D (no such database) and 42501 (privilege).
    private static func isAccessProblem(_ state: String) -> Bool {
        state.hasPrefix("08") || state.hasPrefix("28") || state.hasPrefix("3D") || state == "42501"
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        let message = text.map { String(cString: $0) } ?? ""
        // libpq's messages span lines, continuation lines indented with a tab.
        return message.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }
            .joined(separator: " ")
    }

    deinit {
        // Never connected: libpq may not even be loaded.
        if let handle { PQfinish(handle) }
    }
}
