internal import CLibNM
internal import Logging

/// Runs one GIO-style asynchronous call (`…_async` + `…_finish`) as a Swift `async` function.
///
/// `start` receives the callback and user data to hand to the `…_async` function; `finish` runs in
/// the callback on the libnm thread with the source object and the `GAsyncResult`, and calls the
/// matching `…_finish`. Cancellation goes through the `GCancellable` given to the C call, which
/// then finishes with `G_IO_ERROR_CANCELLED`.
///
/// `name` is the NetworkManager D-Bus method libnm calls, for the debug log (`-v`): name, outcome
/// and time, never the arguments (a connection profile holds the hotspot password).
nonisolated(nonsending) func gAsyncCall<Value>(
    _ name: String,
    start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
    finish: @escaping (_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) throws -> Value
) async throws -> Value {
    let started = ContinuousClock.now
    do {
        let value = try await gAsyncCallUnlogged(start: start, finish: finish)
        networkManagerLog.debug("NetworkManager \(name): ok in \(milliseconds(since: started)) ms")
        return value
    } catch {
        networkManagerLog.debug("NetworkManager \(name): \(error) after \(milliseconds(since: started)) ms")
        throw error
    }
}

private func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
    let (seconds, attoseconds) = (ContinuousClock.now - start).components
    return seconds * 1000 + attoseconds / 1_000_000_000_000_000
}

private nonisolated(nonsending) func gAsyncCallUnlogged<Value>(
    start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
    finish: @escaping (_ source: UnsafeMutablePointer<GObject>?, _ result: OpaquePointer?) throws -> Value
) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        let completion = GAsyncCompletion { source, result in
            // The callback runs on the libnm thread, where the awaiting code resumes too.
            nonisolated(unsafe) let outcome = Result { try finish(source, result) }
            continuation.resume(with: outcome)
        }
        start(completeAsyncCall, Unmanaged.passRetained(completion).toOpaque())
    }
}

/// What the C callback calls back into; retained across the call and released when it fires.
private final class GAsyncCompletion {
    let complete: (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void

    init(_ complete: @escaping (UnsafeMutablePointer<GObject>?, OpaquePointer?) -> Void) {
        self.complete = complete
    }
}

private let completeAsyncCall: GAsyncReadyCallback = { source, result, data in
    Unmanaged<GAsyncCompletion>.fromOpaque(data!).takeRetainedValue().complete(source, result)
}
