import DescriptorWaits

/// Waits for a socket's readiness on a thread of its own, for callers that live on the cooperative pool.
actor SocketReadinessWaiter {
    private let executor = BlockingSocketExecutor()

    /// Runs the actor on its own thread, where blocking in `poll()` harms nobody.
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    deinit {
        executor.shutdown()
    }

    /// ``DescriptorReadiness/wait(for:on:until:noticingCancellation:)`` off the cooperative pool; waits queue one after another.
    func wait(for events: Int16, on descriptor: Int32, until deadline: ContinuousClock.Instant) async
        -> DescriptorReadiness.Outcome
    {
        await CancellationWake.cancellable { DescriptorReadiness.wait(for: events, on: descriptor, until: deadline) }
    }
}
