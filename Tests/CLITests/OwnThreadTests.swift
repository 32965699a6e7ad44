import Dispatch
import Glibc
import Synchronization
import Testing

@testable import ztprov

/// Blocking work handed to ``OwnThread`` runs even while every thread of the shared pool is blocked.
@Suite(.timeLimit(.minutes(1))) struct OwnThreadTests {
    enum Refusal: Error, Equatable { case refused }

    @Test func runsWhileEveryPoolThreadIsBlocked() async throws {
        let width = max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let gate = DispatchSemaphore(value: 0)
        let blocked = BlockedCount()
        // Tasks that block their pool thread until the work below lets them go: were the work itself on
        // the pool, nothing would ever release them.
        let blockers = (0..<width).map { _ in
            Task.detached {
                blocked.count.add(1, ordering: .relaxed)
                gate.wait()
            }
        }
        let value = await OwnThread.run { () -> Int in
            while blocked.count.load(ordering: .relaxed) < width { usleep(1000) }
            for _ in 0..<width { gate.signal() }
            return 42
        }
        for blocker in blockers { await blocker.value }
        #expect(value == 42)
    }

    @Test func passesTheBodysTypedErrorOn() async {
        await #expect(throws: Refusal.refused) {
            try await OwnThread.run { () throws(Refusal) -> Int in throw .refused }
        }
    }
}

/// How many pool threads are blocked so far, shared with the tasks that block them.
private final class BlockedCount: Sendable {
    let count = Atomic<Int>(0)
}
