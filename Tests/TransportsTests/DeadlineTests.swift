import Synchronization
import Testing
import Transports

@Suite struct DeadlineTests {
    struct WorkFailed: Error {}

    /// Set once the work saw its cancellation.
    final class Flag: Sendable {
        private let state = Mutex(false)
        var isSet: Bool { state.withLock { $0 } }
        func set() { state.withLock { $0 = true } }
    }

    /// Suspends until the task is cancelled, then reports it: a port that never answers.
    static func hangUntilCancelled(_ sawCancellation: Flag) async throws -> Int {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        return try await withTaskCancellationHandler {
            for await value in stream { return value }
            sawCancellation.set()
            throw CancellationError()
        } onCancel: {
            continuation.finish()
        }
    }

    /// One answer, given whenever it comes, to whoever waits for it.
    final class Answer: Sendable {
        private let state = Mutex<(value: Int?, waiter: CheckedContinuation<Int, Never>?)>((nil, nil))

        func park(_ waiter: CheckedContinuation<Int, Never>) {
            let ready = state.withLock { state -> Int? in
                if state.value == nil { state.waiter = waiter }
                return state.value
            }
            if let ready { waiter.resume(returning: ready) }
        }

        func give(_ value: Int) {
            let waiter = state.withLock { state in
                state.value = value
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: value)
        }
    }

    @Test func returnsTheWorksValueBeforeTheDeadline() async throws {
        let value = try await withDeadline(.now + .seconds(3600), "test work") { 42 }
        #expect(value == 42)
    }

    @Test func passesTheWorksErrorThrough() async {
        await #expect(throws: WorkFailed.self) {
            try await withDeadline(.now + .seconds(3600), "test work") { () async throws -> Int in throw WorkFailed() }
        }
    }

    @Test func cancelsHangingWorkAndThrowsDeadlineExceeded() async {
        let sawCancellation = Flag()
        await #expect(throws: DeadlineExceeded.self) {
            try await withDeadline(.now, "test work") { try await Self.hangUntilCancelled(sawCancellation) }
        }
        #expect(sawCancellation.isSet)
    }

    /// The work answers only once it is cancelled, so the answer always arrives after the timer fired.
    @Test func keepsAValueProducedAsTheTimerFires() async throws {
        let value = try await withDeadline(.now, "test work") {
            let answer = Answer()
            return await withTaskCancellationHandler {
                await withCheckedContinuation { answer.park($0) }
            } onCancel: {
                answer.give(7)
            }
        }
        #expect(value == 7)
    }

    @Test func cancellingTheCallerSurfacesAsCancellation() async {
        let sawCancellation = Flag()
        let run = Task {
            try await withDeadline(.now + .seconds(3600), "test work") {
                try await Self.hangUntilCancelled(sawCancellation)
            }
        }
        run.cancel()
        await #expect(throws: CancellationError.self) { try await run.value }
        #expect(sawCancellation.isSet)
    }
}
