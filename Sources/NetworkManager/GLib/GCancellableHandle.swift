internal import CLibNM

/// A `GCancellable` that a task's cancellation handler may fire from any thread.
///
/// Swift cancellation arrives on whatever thread cancelled the task; GIO documents
/// `g_cancellable_cancel` as thread-safe, and waits on the libnm thread notice it through a
/// cancellable source attached to their own context.
final class GCancellableHandle: @unchecked Sendable {
    // Safety of `@unchecked Sendable`: only the thread-safe cancel and query calls touch the object
    // from other threads; sources and libnm calls use it on the libnm thread.
    let pointer: OpaquePointer

    init() {
        pointer = g_cancellable_new()
    }

    /// Cancels every wait and libnm call that was given this handle.
    func cancel() {
        g_cancellable_cancel(pointer)
    }

    var isCancelled: Bool { g_cancellable_is_cancelled(pointer) != 0 }

    /// Throws `CancellationError` once cancelled, so a step sequence stops at the next boundary.
    func checkCancellation() throws {
        if isCancelled { throw CancellationError() }
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}
