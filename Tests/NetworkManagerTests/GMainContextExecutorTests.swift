import Testing

@testable import NetworkManager

@Suite struct GMainContextExecutorTests {
    /// An actor pinned to a GMainContextExecutor, as NMSoftAPJoiner is.
    actor LoopBound {
        let executor = GMainContextExecutor(name: "ztprov-test-loop")
        private(set) var order: [Int] = []

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func record(_ value: Int) -> Bool {
            order.append(value)
            return executor.isCurrentThread
        }
    }

    @Test func runsActorJobsOnTheLoopThread() async {
        let actor = LoopBound()
        #expect(await actor.record(1))
        #expect(!actor.executor.isCurrentThread)
    }

    @Test func runsJobsFromManyTasksOneAtATime() async {
        let actor = LoopBound()
        await withTaskGroup(of: Bool.self) { group in
            for value in 0..<200 {
                group.addTask { await actor.record(value) }
            }
            for await onLoop in group {
                #expect(onLoop)
            }
        }
        #expect(await actor.order.sorted() == Array(0..<200))
    }

    @Test func assumeIsolatedHoldsOnTheLoopThread() async {
        let actor = LoopBound()
        let value = await actor.checkedByAssumption()
        #expect(value == 1)
    }
}

extension GMainContextExecutorTests.LoopBound {
    /// Re-enters isolation through the executor's `checkIsolated`, as code called back from GLib does.
    func checkedByAssumption() -> Int {
        _ = record(1)
        return assumeIsolated { $0.order.count }
    }
}
