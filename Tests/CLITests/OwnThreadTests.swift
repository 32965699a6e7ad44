import Glibc
import Synchronization
import Testing

@testable import ztprov

/// Blocking work handed to ``OwnThread`` gets a thread of its own each time, so however much of it waits at
/// once, none of it holds a thread of the shared pool.
@Suite(.timeLimit(.minutes(1))) struct OwnThreadTests {
    enum Refusal: Error, Equatable { case refused }

    /// Four times the pool's width of bodies that each wait until all have started: on the pool they
    /// could never all run at once.
    @Test func manyBlockingBodiesRunAtOnce() async {
        let count = 4 * max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let started = StartedCount()
        let values = await withTaskGroup(of: Int.self) { group in
            for index in 0..<count {
                group.addTask {
                    await OwnThread.run { () -> Int in
                        started.count.add(1, ordering: .relaxed)
                        while started.count.load(ordering: .relaxed) < count { usleep(1000) }
                        return index
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(values.sorted() == Array(0..<count))
    }

    @Test func passesTheBodysTypedErrorOn() async {
        await #expect(throws: Refusal.refused) {
            try await OwnThread.run { () throws(Refusal) -> Int in throw .refused }
        }
    }
}

/// How many bodies have started, shared with them.
private final class StartedCount: Sendable {
    let count = Atomic<Int>(0)
}
