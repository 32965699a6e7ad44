internal import CLibNM

/// A GObject signal to re-check a wait condition on, such as `notify::state` on an active connection.
struct GSignalWatch {
    let object: GObjectRef
    let signal: String
}

/// Waits on the libnm thread until `evaluate` returns a value or throws, checking it now and again
/// after each watched signal; fails with `timedOut` (evaluated then) at the deadline and with `CancellationError`
/// when `cancellable` fires.
///
/// Every handler and source is removed on every exit path, so nothing fires into a finished wait.
/// A wait given no cancellable runs to its own end: cleanup after a cancelled task relies on that.
///
/// Isolated to an explicit parameter and checked on the way out for the reason given at
/// `gAsyncCallUnlogged`: a generic `nonisolated(nonsending)` wait can return off the libnm thread in
/// optimised builds.
func gWaitUntil<Value>(
    isolation: isolated (any Actor)? = #isolation,
    watching watches: [GSignalWatch],
    timeout: Duration,
    cancellable: GCancellableHandle?,
    timedOut: @autoclosure @escaping () -> any Error,
    evaluate: @escaping () throws -> Value?
) async throws -> Value {
    try cancellable?.checkCancellation()
    if let value = try evaluate() { return value }
    let waiter = GSignalWaiter()
    defer {
        waiter.stop()
        isolation?.preconditionIsolated("a libnm wait resumed off its actor's thread")
    }
    return try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
        waiter.start(watches: watches, timeout: timeout, cancellable: cancellable) { event in
            // Handlers run on the libnm thread, where the awaiting code resumes too.
            nonisolated(unsafe) let outcome: Result<Value, any Error>
            switch event {
            case .changed:
                do {
                    guard let value = try evaluate() else { return }
                    outcome = .success(value)
                } catch {
                    outcome = .failure(error)
                }
            case .timedOut:
                outcome = .failure(timedOut())
            case .cancelled:
                outcome = .failure(CancellationError())
            }
            waiter.stop()
            continuation.resume(with: outcome)
        }
    }
}

/// The signal handlers and GLib sources of one wait; `stop()` removes them all and forgets the callback.
private final class GSignalWaiter {
    enum Event { case changed, timedOut, cancelled }

    private var onEvent: ((Event) -> Void)?
    private var handlers: [(object: GObjectRef, id: gulong)] = []
    private var sources: [OpaquePointer] = []

    // Handlers and sources hold this waiter unretained: `stop()` removes them before it can go away.
    func start(
        watches: [GSignalWatch],
        timeout: Duration,
        cancellable: GCancellableHandle?,
        onEvent: @escaping (Event) -> Void
    ) {
        self.onEvent = onEvent
        let data = Unmanaged.passUnretained(self).toOpaque()
        for watch in watches {
            let id = CLibNM_signal_connect(watch.object.raw, watch.signal, signalFired, data, nil)
            handlers.append((watch.object, id))
        }
        attach(g_timeout_source_new(timeout.clampedMilliseconds), timeoutFired, data)
        if let cancellable {
            attach(g_cancellable_source_new(cancellable.pointer), cancellableFired, data)
        }
    }

    func fire(_ event: Event) {
        onEvent?(event)
    }

    func stop() {
        onEvent = nil
        for handler in handlers {
            g_signal_handler_disconnect(handler.object.raw, handler.id)
        }
        handlers = []
        for source in sources {
            g_source_destroy(source)
            g_source_unref(source)
        }
        sources = []
    }

    private func attach(
        _ source: OpaquePointer, _ callback: GSourceFunc, _ data: UnsafeMutableRawPointer
    ) {
        g_source_set_callback(source, callback, data, nil)
        g_source_attach(source, g_main_context_get_thread_default())
        sources.append(source)
    }
}

extension Duration {
    /// Milliseconds for a GLib timeout, rounded up so a wait never ends early, and capped to `guint`.
    fileprivate var clampedMilliseconds: guint {
        let (seconds, attoseconds) = components
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return guint(clamping: max(milliseconds, 0))
    }
}

// Every watched signal carries (instance, one pointer argument, user data): `notify::…` passes a
// GParamSpec, `access-point-added` the access point.
private let signalFired: GCallback = unsafeBitCast(
    { (_: UnsafeMutableRawPointer?, _: UnsafeMutableRawPointer?, data: UnsafeMutableRawPointer?) in
        Unmanaged<GSignalWaiter>.fromOpaque(data!).takeUnretainedValue().fire(.changed)
    } as @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void,
    to: GCallback.self
)

private let timeoutFired: GSourceFunc = { data in
    Unmanaged<GSignalWaiter>.fromOpaque(data!).takeUnretainedValue().fire(.timedOut)
    return CLibNM_SOURCE_REMOVE
}

// GLib calls a cancellable source's callback as GCancellableSourceFunc (cancellable, data).
private let cancellableFired: GSourceFunc = unsafeBitCast(
    { (_: OpaquePointer?, data: UnsafeMutableRawPointer?) -> gboolean in
        Unmanaged<GSignalWaiter>.fromOpaque(data!).takeUnretainedValue().fire(.cancelled)
        return CLibNM_SOURCE_REMOVE
    } as @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> gboolean,
    to: GSourceFunc.self
)
