import Synchronization

/// The bus connect's time limit: whether it fired (and cancelled the connect) before the connect finished.
final class NMConnectDeadline: Sendable {
    private static let running = 0
    private static let expired = 1
    private static let finished = 2

    private let state = Atomic<Int>(NMConnectDeadline.running)

    var fired: Bool { state.load(ordering: .acquiring) == Self.expired }

    /// Cancels `cancellable` unless the connect finished first.
    func fire(cancelling cancellable: GCancellableHandle) {
        guard
            state.compareExchange(expected: Self.running, desired: Self.expired, ordering: .acquiringAndReleasing)
                .exchanged
        else { return }
        cancellable.cancel()
    }

    /// Marks the connect finished; false when the limit fired first (the cancellable is then cancelled).
    func finish() -> Bool {
        state.compareExchange(expected: Self.running, desired: Self.finished, ordering: .acquiringAndReleasing)
            .exchanged
    }
}
