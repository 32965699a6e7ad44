import FoundationEssentials
import Records

extension BatchRunner {
    /// One lane inside its discovery scope, if the path has one; what it heard goes to the queue, and is
    /// forgotten when the lane ends so units it heard can go to other lanes.
    func runLane(_ lane: String, queue: BatchQueue, tally: BatchTally) async -> LaneEnd {
        let end = await workInScope(lane, queue: queue, tally: tally)
        await queue.laneEnded(lane)
        return end
    }

    private func workInScope(_ lane: String, queue: BatchQueue, tally: BatchTally) async -> LaneEnd {
        guard let laneScope else { return await work(lane, queue: queue, tally: tally) }
        var end: LaneEnd?
        do {
            let listen: @Sendable (BatchSighting) async -> Void = { await queue.heard($0) }
            try await laneScope(lane, listen) {
                await queue.listening(lane)
                end = await work(lane, queue: queue, tally: tally)
            }
        } catch {
            // Discovery failing to stop after the lane's work is over changes nothing the records say.
            if let end { return end }
            if Task.isCancelled { return .drained }
            let failure =
                error as? ProvisioningError
                ?? ProvisioningError(.timeout, "Discovery on \(lane) failed: \(error).", hint: "Run `ztprov doctor`.")
            events(.laneStopped(lane: lane, failure))
            return .stopped(lane: lane, failure)
        }
        return end ?? .drained
    }

    /// One lane's loop: take a unit, skip or try it, record the attempt, repeat.
    func work(_ lane: String, queue: BatchQueue, tally: BatchTally) async -> LaneEnd {
        while let entry = await queue.next(for: lane) {
            do {
                if try await isDone(entry.device) {
                    events(.skipped(entry.device, .alreadyProvisioned))
                    await tally.skipped()
                    await queue.settled()
                    continue
                }
                if let stop = try await attemptAndRecord(entry, lane: lane, queue: queue, tally: tally) {
                    events(.laneStopped(lane: lane, stop))
                    return .stopped(lane: lane, stop)
                }
            } catch {
                await queue.putBack(entry)
                return .storeFailed(storeFailure(error))
            }
        }
        return .drained
    }

    private func isDone(_ device: BatchDevice) async throws -> Bool {
        guard !settings.force else { return false }
        return try await store.provisionedDeviceKeys(among: [device.key]).contains(device.key)
    }

    /// Tries the unit once and records it; returns the error that makes the lane stop, if any.
    private func attemptAndRecord(
        _ entry: BatchQueue.Entry, lane: String, queue: BatchQueue, tally: BatchTally
    ) async throws -> ProvisioningError? {
        let device = entry.device
        events(.attemptStarted(lane: lane, device, attempt: entry.attempt))
        let journal = BatchAttemptJournal(now: monotonicClock)
        let startedAt = wallClock()
        let failure = await tryOnce(device, lane: lane, attempt: entry.attempt, journal: journal)
        let interrupted = Task.isCancelled
        if let failure, !interrupted, settings.retryPolicy.disablesLane(failure) {
            await queue.putBack(entry)
            return failure
        }
        let retrying =
            failure.map { !interrupted && settings.retryPolicy.retries($0, afterAttempt: entry.attempt) }
            ?? false
        let record = makeRecord(
            device, lane: lane, attempt: entry.attempt, journal: journal, startedAt: startedAt,
            failure: interrupted ? .interruptedByUser : failure, isFinal: !retrying && !interrupted)
        try await store.append(record)
        events(.attemptRecorded(record, retrying: retrying))
        if interrupted {
            await tally.interruptedAttempt()
            await queue.settled()
        } else if retrying {
            await tally.recorded(final: nil)
            try? await Task.sleep(for: settings.retryPolicy.backoff)
            await queue.retry(device, attempt: entry.attempt + 1)
        } else {
            await tally.recorded(final: record.code)
            await queue.settled()
        }
        return nil
    }

    /// Runs the attempt under its deadline; nil on success, else why it failed.
    private func tryOnce(
        _ device: BatchDevice, lane: String, attempt: Int, journal: BatchAttemptJournal
    ) async -> ProvisioningError? {
        let context = BatchAttemptContext(
            device: device, lane: lane, attempt: attempt, journal: journal,
            deadline: monotonicClock() + settings.attemptTimeout,
            progress: { [events] text in events(.progress(lane: lane, device, text)) })
        do {
            try await self.attempt(context)
            return nil
        } catch let error as ProvisioningError {
            return error
        } catch is CancellationError {
            return .interruptedByUser
        } catch {
            return ProvisioningError(
                .timeout, "The attempt failed unexpectedly: \(error).", hint: "Run the unit again with --verbose.")
        }
    }

    /// Records a unit no lane could take as a final failure, so it is never counted as done nor left
    /// without a trace.
    func recordNeverAttempted(_ device: BatchDevice, lane: String, _ failure: ProvisioningError, tally: BatchTally)
        async throws
    {
        let now = wallClock()
        let record = makeRecord(
            device, lane: lane, attempt: 1, journal: BatchAttemptJournal(now: monotonicClock), startedAt: now,
            failure: failure, isFinal: true)
        try await store.append(record)
        events(.attemptRecorded(record, retrying: false))
        await tally.recorded(final: record.code)
    }

    private func makeRecord(
        _ device: BatchDevice, lane: String, attempt: Int, journal: BatchAttemptJournal, startedAt: Date,
        failure: ProvisioningError?, isFinal: Bool
    ) -> ProvisioningRecord {
        let learned = journal.closed()
        return ProvisioningRecord(
            batchID: settings.batchID, station: settings.station, adapter: lane, deviceKey: device.key,
            address: learned.address ?? device.address, deviceID: learned.deviceID, path: settings.path,
            security: learned.security, attempt: attempt, isFinal: isFinal,
            code: failure?.code.rawValue ?? ProvisioningRecord.successCode, message: failure?.message,
            startedAt: startedAt, finishedAt: wallClock(), steps: learned.steps, firmware: learned.firmware,
            provisioningProtocol: learned.provisioningProtocol)
    }
}
