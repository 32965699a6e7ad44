import HTTPServing
import Logging
import Provisioning
import Records

/// `report --serve`: the live page at `/`, the metrics at `/metrics`, and `/changes`, which the page's
/// script asks to learn when to fetch the page anew. Runs until cancelled (Ctrl-C, SIGTERM).
enum LineServer {
    /// How long `/changes` holds a request when nothing lands; the page then fetches itself anew anyway, so
    /// the stations gone quiet stay current.
    static let longestWait: Duration = .seconds(60)

    static func serve(
        _ line: LiveLine, at address: ServeAddress, watching location: RecordStoreLocation, context: CommandContext
    ) async throws(ProvisioningError) {
        let console = context.console
        let logger = context.logger
        let watch = try await RecordChangeWatch.watching(location)
        let outcome = await withTaskGroup(of: ProvisioningError?.self) { group in
            group.addTask {
                await follow(watch, into: line, from: location, logger: logger)
                return nil
            }
            group.addTask {
                do throws(HTTPServingError) {
                    try await HTTPServer.serve(host: address.host, port: address.port) { host, port in
                        let url = "http://\(ServeAddress(host: host, port: port).authority)/"
                        console.progress("Serving the line at \(url) (metrics at \(url)metrics); Ctrl-C stops")
                    } handler: { request in
                        await answer(request, from: line)
                    }
                    return nil
                } catch {
                    return ProvisioningError(
                        .reportCannotServe, "Cannot serve the line at \(address.authority).",
                        hint: ErrorCode.reportCannotServe.hint, detail: error.description)
                }
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        if let outcome { throw outcome }
        throw .interruptedByUser
    }

    /// Reads what the watch says may have landed, until cancelled. A read that fails (a writer's lock, a
    /// lost connection) is tried again at the next look, whether or not the watch sees another change.
    static func follow(
        _ watch: RecordChangeWatch, into line: LiveLine, from location: RecordStoreLocation, logger: Logger
    ) async {
        var watch = watch
        var unread = false
        while !Task.isCancelled {
            do {
                if try await watch.next() || unread {
                    unread = true
                    try await line.catchUp()
                    unread = false
                }
            } catch  where Task.isCancelled {
                return
            } catch {
                logger.warning("cannot read new records from \(location) (trying again): \(error)")
                try? await Task.sleep(for: RecordChangeWatch.interval)
            }
        }
    }

    static func answer(_ request: HTTPServerRequest, from line: LiveLine) async -> HTTPServerResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPServerResponse(status: 405, contentType: "text/plain; charset=utf-8", body: "Only GET.\n")
        }
        let fresh = ["Cache-Control": "no-store"]
        switch request.path {
        case "/":
            return HTTPServerResponse(
                contentType: "text/html; charset=utf-8", body: await line.pageHTML(),
                headers: fresh.merging(["Referrer-Policy": "no-referrer"]) { $1 })
        case "/metrics":
            return HTTPServerResponse(
                contentType: "text/plain; version=0.0.4; charset=utf-8", body: await line.metricsExposition(),
                headers: fresh)
        case "/changes":
            return HTTPServerResponse(
                contentType: "text/plain; charset=utf-8", body: await change(after: request.query["after"], on: line),
                headers: fresh)
        default:
            return HTTPServerResponse(status: 404, contentType: "text/plain; charset=utf-8", body: "Not found.\n")
        }
    }

    /// The version once it differs from `after`, or `reload` after ``longestWait``; looks as often as the
    /// watch does.
    private static func change(after: String?, on line: LiveLine) async -> String {
        let start = ContinuousClock.now
        while start.duration(to: .now) < longestWait {
            let version = await line.version
            if "\(version)" != after { return "\(version)" }
            do {
                try await Task.sleep(for: RecordChangeWatch.interval)
            } catch {
                break
            }
        }
        return "reload"
    }
}
