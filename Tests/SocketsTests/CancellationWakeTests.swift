import Glibc
import Synchronization
import Testing

@testable import DescriptorWaits
@testable import Sockets

/// A socket wait inside a cancellable scope ends when the scope's wake fires, not at its deadline or at a
/// later look at the task's flag.
@Suite(.timeLimit(.minutes(1))) struct CancellationWakeTests {
    /// A connected socket pair, closed when released: input waited for on `waited` comes only from `peer`.
    final class SocketPair {
        let waited: Int32
        let peer: Int32

        init() throws {
            var ends: [Int32] = [-1, -1]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
            (waited, peer) = (ends[0], ends[1])
        }

        deinit {
            close(waited)
            close(peer)
        }
    }

    /// A wait for input on `pair` inside the scope of a wake that has already fired.
    static func waitAfterTheWakeFired(
        on pair: SocketPair, until deadline: ContinuousClock.Instant, noticingCancellation: Bool = true
    ) throws -> DescriptorReadiness.Outcome {
        let wake = try #require(CancellationWake())
        wake.signal()
        return CancellationWake.$current.withValue(wake) {
            DescriptorReadiness.wait(
                for: Int16(POLLIN), on: pair.waited, until: deadline, noticingCancellation: noticingCancellation)
        }
    }

    @Test func aFiredWakeEndsAWaitWhoseDeadlineIsAnHourAway() throws {
        let pair = try SocketPair()
        #expect(try Self.waitAfterTheWakeFired(on: pair, until: .now + .seconds(3600)) == .cancelled)
    }

    @Test func cancellingTheTaskFiresTheWakeOfItsScope() async throws {
        let pair = try SocketPair()
        let worker = CancellationWakeIsolationTests.OwnThreadWorker()
        let waiting = Task { await worker.waitForInput(on: pair.waited) }
        await worker.waitUntilWaiting()
        waiting.cancel()
        #expect(await waiting.value == .cancelled)
    }

    /// A grace after cancellation waits on: a fired wake does not end a wait that ignores cancellation.
    @Test func aWaitIgnoringCancellationRunsToItsDeadline() throws {
        let pair = try SocketPair()
        let outcome = try Self.waitAfterTheWakeFired(
            on: pair, until: .now + .milliseconds(50), noticingCancellation: false)
        #expect(outcome == .deadlinePassed)
    }

    /// The pause between tries of a lock ends when the wake fires: a pause of an hour returns.
    @Test func aFiredWakeEndsAPauseOfAnHour() throws {
        let wake = try #require(CancellationWake())
        wake.signal()
        CancellationWake.$current.withValue(wake) { CancellationWake.pause(.seconds(3600)) }
    }

    @Test func dataStillEndsTheWaitAsReady() throws {
        let pair = try SocketPair()
        let wake = try #require(CancellationWake())
        var byte: UInt8 = 7
        #expect(write(pair.peer, &byte, 1) == 1)
        let outcome = CancellationWake.$current.withValue(wake) {
            DescriptorReadiness.wait(for: Int16(POLLIN), on: pair.waited, until: .now + .seconds(3600))
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
