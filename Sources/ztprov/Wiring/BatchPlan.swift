import FoundationEssentials
import Glibc
import JSONWriting
import Provisioning
import Records

/// `ztprov batch` put together: secrets read, lanes resolved, records opened and input checked before
/// the first unit is touched; then the runner, the per-lane printer and the verdict.
struct BatchPlan {
    let runner: BatchRunner
    let input: AsyncStream<BatchDevice>
    let store: any ProvisioningRecordStore
    /// The lanes drawn in place, when the batch runs on a terminal.
    let liveView: BatchLiveTerminal?

    static func make(_ command: BatchCommand, context: CommandContext) async throws(ProvisioningError) -> BatchPlan {
        let path = command.path.path
        let handoff =
            command.handoff.areaID == nil
            ? nil : BatchHandoff(options: command.handoff, lan: command.lan, context: context)
        let discoveries = BatchBLEDiscoveries()
        let attempt = try attempt(command, handoff: handoff, discoveries: discoveries, context: context)
        let parser = BatchInputParser(path: path)
        let input: AsyncStream<BatchDevice>
        var fileUnits: [BatchDevice]?
        if let file = command.devices, file != "-" {
            fileUnits = try BatchInputSource.file(file, parser: parser)
            input = BatchInputSource.stream(fileUnits ?? [])
        } else {
            if isatty(STDIN_FILENO) == 1 {
                context.console.progress("Scan or type one unit per line; Ctrl-D ends the batch.")
            }
            input = BatchInputSource.standardInput(parser: parser) { error in
                context.console.warning("\(error.message) The line is skipped.")
                context.console.event("rejected-line", [JSONField("message", .string(error.message))])
            }
        }
        let lanes = try await lanes(command)
        // A unit no lane may take is bad input, refused before anything is opened or tried.
        for unit in fileUnits ?? [] {
            if let lane = unit.lane, !lanes.contains(lane) { throw .batchUnknownLane(unit, lane: lane, lanes: lanes) }
        }
        let location = try command.records.location()
        let store = try await openRecordStore(location)
        let batchID = UUID().uuidString.lowercased()
        let settings = BatchRunner.Settings(
            batchID: batchID, station: command.station ?? ProcessInfo.processInfo.hostName,
            path: path, lanes: lanes, retryPolicy: BatchRetryPolicy(maxAttempts: command.retries + 1),
            force: command.force, attemptTimeout: .milliseconds(Int64(command.attemptTimeout * 1000)),
            claimLifetime: command.claimLifetime.map { .milliseconds(Int64($0 * 1000)) },
            claimHolder: BatchClaimHolder.current(batchID: batchID), isClaimHolderGone: BatchClaimHolder.isGone)
        let start = ContinuousClock.now
        let liveView =
            BatchLiveTerminal.wanted(by: context.console)
            ? BatchLiveTerminal(lanes: lanes, clock: { .now - start }) : nil
        let printer = BatchProgressPrinter(console: context.console, liveView: liveView)
        let runner = BatchRunner(
            settings: settings, store: store, events: printer.report,
            storeFailure: { error in
                guard let error = error as? RecordStoreError else {
                    return ProvisioningError(
                        .recordsWriteFailed, "Could not record an attempt in \(location): \(error).",
                        hint: "Check the database; this attempt is not recorded.")
                }
                return .records(error, at: location.place, while: .writing)
            }, laneScope: path == .ble ? discoveries.scope : nil, attempt: attempt)
        context.console.progress(
            "Batch \(settings.batchID) on \(settings.station): \(lanes.joined(separator: ", ")); records in \(location)"
        )
        context.console.event(
            "batch-started",
            [
                JSONField("batch_id", .string(settings.batchID)), JSONField("station", .string(settings.station)),
                JSONField("lanes", .array(lanes.map(JSONValue.string))),
            ])
        return BatchPlan(runner: runner, input: input, store: store, liveView: liveView)
    }

    /// Runs the batch; the result fields on success, `batch.incomplete` when some units failed.
    func run(context: CommandContext) async throws(ProvisioningError) -> [JSONField] {
        let drawing = liveView.map { view in Task { await view.run() } }
        let outcome: Result<BatchSummary, ProvisioningError>
        do throws(ProvisioningError) {
            outcome = .success(try await runner.run(input))
        } catch {
            outcome = .failure(error)
        }
        drawing?.cancel()
        await drawing?.value
        let summary = try outcome.get()
        let fields = BatchProgressPrinter.fields(summary)
        context.console.event("summary", fields)
        let line =
            "\(summary.provisioned) provisioned, \(summary.failed) failed, \(summary.skipped) skipped"
            + (summary.untouched > 0 ? ", \(summary.untouched) untouched" : "")
            + (summary.passedOver > 0 ? ", \(summary.passedOver) passed over (held by another station)" : "")
        if summary.interrupted {
            context.console.warning("Interrupted: \(line).")
            throw .interruptedByUser
        }
        guard summary.failed == 0 else {
            context.console.output(line)
            throw .batchIncomplete(failed: summary.failed, of: summary.total)
        }
        context.console.result("Batch done: \(line)")
        return fields
    }

    private static func lanes(_ command: BatchCommand) async throws(ProvisioningError) -> [String] {
        switch command.path {
        case .ble: return try await BatchBLEWiring.lanes(BatchCommand.list(command.adapters))
        case .softap: return BatchCommand.list(command.wifiInterfaces) ?? [BatchSoftAPWiring.defaultLane]
        }
    }

    /// The per-unit attempt for the path, with every station-wide secret read now, before any unit.
    private static func attempt(
        _ command: BatchCommand, handoff: BatchHandoff?, discoveries: BatchBLEDiscoveries, context: CommandContext
    ) throws(ProvisioningError) -> BatchAttempt {
        let environment = ProcessInfo.processInfo.environment
        switch command.path {
        case .ble:
            return BatchBLEWiring.attempt(
                BatchBLEOptions(
                    settings: try command.wifi.settings(expectsDeviceID: handoff != nil),
                    security: command.wifi.securityChoice, minimumSecurity: command.securityFloor.minimum,
                    logger: context.logger),
                scanFor: .milliseconds(Int64(command.scanTimeout * 1000)), discoveries: discoveries, handoff: handoff)
        case .softap:
            let network = ProtocommTargetNetwork(
                ssid: command.wifi.ssid ?? "",
                passphrase: try WiFiPassphrase.resolve(
                    command.wifi.password, openNetwork: command.wifi.openNetwork, code: .softAPInvalidPassphrase,
                    environment: environment))
            let hotspotPassword = try command.wifi.apPassword.resolve(environment: environment, prompt: { _ in nil })
            let sharedPoP = try command.softAP.proofOfPossession.resolve(environment: environment, prompt: { _ in nil })
            let softAP = command.softAP
            let minimum = command.securityFloor.minimum
            // Decided once, before the first unit, by the per-unit checks themselves: a unit's request
            // differs only in its hotspot SSID (checked on its input line) and its PoP.
            _ = try softAP.request(
                for: BatchDevice(hotspotSSID: "ZT", line: 0), hotspotPassword: hotspotPassword, sharedPoP: sharedPoP,
                network: network
            ).validatedCredentials()
            return BatchSoftAPWiring.attempt(
                request: { unit in
                    var request = softAP.request(
                        for: unit, hotspotPassword: hotspotPassword, sharedPoP: sharedPoP, network: network)
                    request.security.minimum = minimum
                    return request
                },
                handoff: handoff)
        }
    }
}
