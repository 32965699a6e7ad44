import Synchronization

/// Whether the bus connect's time limit fired (and cancelled the connect), as opposed to the caller.
final class NMConnectDeadline: Sendable {
    private let state = Atomic<Bool>(false)

    var fired: Bool { state.load(ordering: .acquiring) }

    func fire(cancelling cancellable: GCancellableHandle) {
        state.store(true, ordering: .releasing)
        cancellable.cancel()
    }
}
