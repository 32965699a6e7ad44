import Glibc
import Synchronization
import Testing

@testable import DescriptorWaits
@testable import Sockets

/// A socket wait inside a cancellable scope ends when the scope's wake fires, not at its deadline or at a
/// later look at the task's flag.
@Suite(.timeLimit(.minutes(1))) struct CancellationWakeTests {
    /// A socket pair whose other end never writes: only the wake can end a wait for input on it.
    static func silentSocket() throws -> (waited: Int32, silent: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    @Test func aFiredWakeEndsAWaitWhoseDeadlineIsAnHourAway() throws {
        let (waited, silent) = try Self.silentSocket()
        defer {
            close(waited)
            close(silent)
        }
        let wake = try #require(CancellationWake())
        wake.signal()
        let outcome = CancellationWake.$current.withValue(wake) {
            DescriptorReadiness.wait(for: Int16(POLLIN), on: waited, until: .now + .seconds(3600))
        }
        #expect(outcome == .cancelled)
    }

    @Test func cancellingTheTaskFiresTheWakeOfItsScope() async throws {
        let (waited, silent) = try Self.silentSocket()
        defer {
            close(waited)
            close(silent)
        }
        let worker = CancellationWakeIsolationTests.OwnThreadWorker()
        let waiting = Task { await worker.waitForInput(on: waited) }
        await worker.waitUntilWaiting()
        waiting.cancel()
        #expect(await waiting.value == .cancelled)
    }

    /// A grace after cancellation waits on: a fired wake does not end a wait that ignores cancellation.
    @Test func aWaitIgnoringCancellationRunsToItsDeadline() throws {
        let (waited, silent) = try Self.silentSocket()
        defer {
            close(waited)
            close(silent)
        }
        let wake = try #require(CancellationWake())
        wake.signal()
        let outcome = CancellationWake.$current.withValue(wake) {
            DescriptorReadiness.wait(
                for: Int16(POLLIN), on: waited, until: .now + .milliseconds(50), noticingCancellation: false)
        }
        #expect(outcome == .deadlinePassed)
    }

    /// The pause between tries of a lock ends when the wake fires: a pause of an hour returns.
    @Test func aFiredWakeEndsAPauseOfAnHour() throws {
        let wake = try #require(CancellationWake())
        wake.signal()
        CancellationWake.$current.withValue(wake) { CancellationWake.pause(.seconds(3600)) }
    }

    @Test func dataStillEndsTheWaitAsReady() throws {
        let (waited, peer) = try Self.silentSocket()
        defer {
            close(waited)
            close(peer)
        }
        let wake = try #require(CancellationWake())
        var byte: UInt8 = 7
        #expect(write(peer, &byte, 1) == 1)
        let outcome = CancellationWake.$current.withValue(wake) {
            DescriptorReadiness.wait(for: Int16(POLLIN), on: waited, until: .now + .seconds(3600))
        }
        #expect(outcome == .ready)
    }
}

/// The blocking work inside a cancellable scope stays on its actor's own thread: were it moved to the shared
/// pool, a busy pool would delay it past its deadlines (and it would block a pool thread).
@Suite struct CancellationWakeIsolationTests {
    actor OwnThreadWorker {
        private let executor = BlockingSocketExecutor()

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        deinit {
            executor.shutdown()
        }

        /// Set from inside the wait's scope; read from outside while this actor's thread is blocked in it.
        private let waiting = Atomic<Bool>(false)

        /// Waits for input an hour long, on this actor's thread as the sockets do.
        func waitForInput(on descriptor: Int32) async -> DescriptorReadiness.Outcome {
            await CancellationWake.cancellable {
                waiting.store(true, ordering: .relaxed)
                return DescriptorReadiness.wait(for: Int16(POLLIN), on: descriptor, until: .now + .seconds(3600))
            }
        }

        /// Returns once ``waitForInput(on:)`` is in its scope.
        nonisolated func waitUntilWaiting() async {
            while !waiting.load(ordering: .relaxed) { try? await Task.sleep(for: .milliseconds(5)) }
        }

        func runsOnItsOwnThreadInsideTheScope() async -> Bool {
            let outside = pthread_self()
            return await CancellationWake.cancellable { pthread_equal(pthread_self(), outside) != 0 }
        }
    }

    @Test func theScopesBodyRunsOnTheCallersExecutor() async {
        #expect(await OwnThreadWorker().runsOnItsOwnThreadInsideTheScope())
    }
}
