#if canImport(Glibc)
    import Glibc
#endif

/// Runs blocking work (a prompt waiting for a person to type) on a thread of its own and awaits it, so
/// it never holds one of the few threads of Swift's shared pool, whose timers keep the rest of the run
/// (the held BLE link's deadlines, progress) going meanwhile.
enum OwnThread {
    static func run<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation {
            (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            let work = Unmanaged.passRetained(
                OwnThreadWork {
                    continuation.resume(returning: Result { () throws(Failure) in try body() })
                }
            ).toOpaque()
            var thread = pthread_t()
            let status = pthread_create(
                &thread, nil,
                { context in
                    Unmanaged<OwnThreadWork>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, work)
            guard status == 0 else {
                // No thread to be had: run it here rather than not at all.
                Unmanaged<OwnThreadWork>.fromOpaque(work).takeRetainedValue().run()
                return
            }
            pthread_detach(thread)
        }
        return try result.get()
    }
}

/// What ``OwnThread/run(_:)`` hands its thread, boxed to cross `pthread_create`.
private final class OwnThreadWork: Sendable {
    let run: @Sendable () -> Void

    init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }
}
