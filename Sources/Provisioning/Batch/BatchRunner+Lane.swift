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

    /// One lane's loop: take a unit, claim it (skipping it when done, passing it over while another station
    /// holds it), try it, record the attempt, repeat. The claim is the one question asked of the records
    /// before a unit, as the check for a done unit was before claims.
    func work(_ lane: String, queue: BatchQueue, tally: BatchTally) async -> LaneEnd {
        while let entry = await queue.next(for: lane) {
            do {
                var claim = unitClaim(entry.device, lane: lane)
                var outcome = try await store.claim(claim, evenIfProvisioned: settings.force)
                if case .heldElsewhere(let holder) = outcome, settings.isClaimHolderGone(holder.holder) {
                    claim.replacing = holder.holder
                    outcome = try await store.claim(claim, evenIfProvisioned: settings.force)
                }
                switch outcome {
                case .provisioned:
                    events(.skipped(entry.device, .alreadyProvisioned))
                    await tally.skipped()
                    await queue.settled()
                case .heldElsewhere(let holder):
                    if !entry.passedOver {
                        events(.passedOver(lane: lane, entry.device, heldBy: holder))
                        await tally.passedOver()
                    }
                    await queue.later(entry, after: settings.claimRecheck)
                case .claimed:
                    if let stop = try await attemptAndRecord(entry, claim: claim, queue: queue, tally: tally) {
                        events(.laneStopped(lane: lane, stop))
                        return .stopped(lane: lane, stop)
                    }
                }
            } catch {
                await queue.putBack(entry)
                return .storeFailed(storeFailure(error))
            }
        }
        return .drained
    }

    private func unitClaim(_ device: BatchDevice, lane: String) -> UnitClaim {
        UnitClaim(
            deviceKey: device.key, holder: settings.claimHolder, station: settings.station, lane: lane,
            lifetime: settings.claimLifetime)
    }

    /// Tries the claimed unit once and records it, settling the claim; returns the error that makes the lane
    /// stop, if any.
    private func attemptAndRecord(
        _ entry: BatchQueue.Entry, claim: UnitClaim, queue: BatchQueue, tally: BatchTally
    ) async throws -> ProvisioningError? {
        let device = entry.device
        let lane = claim.lane
        events(.attemptStarted(lane: lane, device, attempt: entry.attempt))
        let journal = BatchAttemptJournal(now: monotonicClock)
        let startedAt = wallClock()
        let failure = await tryOnce(device, claim: claim, attempt: entry.attempt, journal: journal)
        let interrupted = Task.isCancelled
        if let failure, !interrupted, settings.retryPolicy.disablesLane(failure) {
            try await store.release(claim)
            await queue.putBack(entry)
            return failure
        }
        let retrying =
            failure.map { !interrupted && settings.retryPolicy.retries($0, afterAttempt: entry.attempt) }
            ?? false
        let record = makeRecord(
            device, lane: lane, attempt: entry.attempt, journal: journal, startedAt: startedAt,
            failure: interrupted ? .interruptedByUser : failure, isFinal: !retrying && !interrupted)
        try await store.append(record, settling: claim)
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

    /// Runs the attempt under its deadline while renewing its claim; nil on success, else why it failed.
    private func tryOnce(
        _ device: BatchDevice, claim: UnitClaim, attempt: Int, journal: BatchAttemptJournal
    ) async -> ProvisioningError? {
        let lane = claim.lane
        let context = BatchAttemptContext(
            device: device, lane: lane, attempt: attempt, journal: journal,
            deadline: monotonicClock() + settings.attemptTimeout,
            progress: { [events] text in events(.progress(lane: lane, device, text)) })
        do {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await self.attempt(context) }
                group.addTask { try await self.keepRenewing(claim, of: device) }
                // The attempt ends first unless the claim was lost; either way the renewing stops.
                try await group.next()
                group.cancelAll()
            }
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

    /// Renews the claim at a third of its lifetime until cancelled, so a slow attempt keeps it; throws when
    /// another station took the unit meanwhile. A renewal the store fails is tried again at the next turn:
    /// the claim lasts through outages shorter than two thirds of its lifetime.
    private func keepRenewing(_ claim: UnitClaim, of device: BatchDevice) async throws {
        while true {
            try await Task.sleep(for: claim.lifetime / 3)
            if (try? await store.renew(claim)) == false { throw ProvisioningError.batchClaimLost(device) }
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
            provisioningProtocol: learned.provisioningProtocol, securedWith: learned.securedWith)
    }
}
