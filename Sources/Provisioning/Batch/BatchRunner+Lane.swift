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
    /// before a unit, as the check for a done unit was before claims; while a unit runs, the lane takes and
    /// claims its next one (``attemptTakingNext(_:queue:tally:)``), so that question is off the critical path.
    func work(_ lane: String, queue: BatchQueue, tally: BatchTally) async -> LaneEnd {
        var next: TakenUnit?
        while true {
            let unit: TakenUnit
            if let taken = next {
                next = nil
                do {
                    unit = try await stillClaimed(taken)
                } catch {
                    await queue.putBack(taken.entry)
                    return .storeFailed(storeFailure(error))
                }
            } else {
                guard let entry = await queue.next(for: lane) else { break }
                do {
                    unit = try await take(entry, lane: lane)
                } catch {
                    await queue.putBack(entry)
                    return .storeFailed(storeFailure(error))
                }
            }
            switch unit.outcome {
            case .provisioned:
                events(.skipped(unit.entry.device, .alreadyProvisioned))
                await tally.skipped()
                await queue.settled()
            case .heldElsewhere(let holder):
                if !unit.entry.passedOver {
                    events(.passedOver(lane: lane, unit.entry.device, heldBy: holder))
                    await tally.passedOver()
                }
                await queue.later(unit.entry, after: settings.claimRecheck)
            case .claimed:
                do {
                    let (stop, taken) = try await attemptTakingNext(unit, queue: queue, tally: tally)
                    if let stop {
                        if let taken { await giveBack(taken, queue: queue) }
                        events(.laneStopped(lane: lane, stop))
                        return .stopped(lane: lane, stop)
                    }
                    next = taken
                } catch let failure as LookaheadFailure {
                    return .storeFailed(storeFailure(failure.error))
                } catch {
                    await queue.putBack(unit.entry)
                    return .storeFailed(storeFailure(error))
                }
            }
        }
        return .drained
    }

    /// A unit a lane took from the queue, with what the records said to its claim.
    struct TakenUnit: Sendable {
        let entry: BatchQueue.Entry
        let claim: UnitClaim
        let outcome: UnitClaimOutcome
        /// When the claim was taken, so one held while another unit ran is renewed before its attempt if due.
        let claimedAt: ContinuousClock.Instant
    }

    /// The store failed while the lane claimed its next unit; that unit is back in the queue.
    private struct LookaheadFailure: Error {
        let error: any Error
    }

    /// Claims `entry` for `lane`; a holder known to be gone (a dead run of this host) is replaced at once.
    private func take(_ entry: BatchQueue.Entry, lane: String) async throws -> TakenUnit {
        var claim = unitClaim(entry.device, lane: lane)
        let claimedAt = monotonicClock()
        var outcome = try await store.claim(claim, evenIfProvisioned: settings.force)
        if case .heldElsewhere(let holder) = outcome, settings.isClaimHolderGone(holder.holder) {
            claim.replacing = holder.holder
            outcome = try await store.claim(claim, evenIfProvisioned: settings.force)
        }
        return TakenUnit(entry: entry, claim: claim, outcome: outcome, claimedAt: claimedAt)
    }

    /// A unit claimed while the previous one ran, its claim renewed first when it is as old as a running
    /// attempt's renewal period (the attempt renews it from then on); a claim lost meanwhile is asked for anew.
    private func stillClaimed(_ taken: TakenUnit) async throws -> TakenUnit {
        guard taken.outcome == .claimed, monotonicClock() - taken.claimedAt >= taken.claim.lifetime / 3 else {
            return taken
        }
        if try await store.renew(taken.claim) { return taken }
        return try await take(taken.entry, lane: taken.claim.lane)
    }

    /// Runs the claimed unit's attempt and records it while the lane takes and claims its next unit, which
    /// only units no idle lane wants can be; returns the error that makes the lane stop, if any, and the next
    /// unit. Under cancellation the next unit goes back untouched, its claim released.
    private func attemptTakingNext(_ unit: TakenUnit, queue: BatchQueue, tally: BatchTally) async throws -> (
        stop: ProvisioningError?, next: TakenUnit?
    ) {
        let lane = unit.claim.lane
        let lookahead = Task { () -> Result<TakenUnit, LookaheadFailure>? in
            guard let entry = await queue.next(for: lane, ahead: true) else { return nil }
            do {
                return .success(try await take(entry, lane: lane))
            } catch {
                await queue.putBack(entry)
                return .failure(LookaheadFailure(error: error))
            }
        }
        let stop: ProvisioningError?
        do {
            stop = try await attemptAndRecord(unit.entry, claim: unit.claim, queue: queue, tally: tally)
        } catch {
            lookahead.cancel()
            if case .success(let taken) = await lookahead.value { await giveBack(taken, queue: queue) }
            throw error
        }
        // Cancelling ends only a wait for a unit: one already taken comes back with its claim.
        lookahead.cancel()
        switch await lookahead.value {
        case nil: return (stop, nil)
        case .failure(let failure): throw failure
        case .success(let taken):
            guard Task.isCancelled else { return (stop, taken) }
            await giveBack(taken, queue: queue)
            return (stop, nil)
        }
    }

    /// Puts a unit the lane took but will not try back in the queue, releasing its claim.
    private func giveBack(_ taken: TakenUnit, queue: BatchQueue) async {
        if taken.outcome == .claimed { try? await store.release(taken.claim) }
        await queue.putBack(taken.entry)
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
