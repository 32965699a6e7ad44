internal import CLibNM
internal import Logging

/// Runs one GIO-style asynchronous call (`…_async` + `…_finish`) as a Swift `async` function.
///
/// `start` receives the callback and user data to hand to the `…_async` function; `finish` runs in
/// the callback on the libnm thread with the source object and the `GAsyncResult`, and calls the
/// matching `…_finish`. Cancellation goes through the `GCancellable` given to the C call, which
/// then finishes with `CLibNM_IO_ERROR_CANCELLED`.
///
/// `name` is the NetworkManager D-Bus method libnm calls, for the debug log (`-v`): name, outcome
/// and time, never the arguments (a connection profile holds the hotspot password).
nonisolated(nonsending) func gAsyncCall<Value>(
    _ name: String,
    start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
    finish: @escaping (_ source: OpaquePointer?, _ result: OpaquePointer?) throws -> Value
) async throws -> Value {
    let started = ContinuousClock.now
    do {
        let value = try await gAsyncCallUnlogged(isolation: #isolation, start: start, finish: finish)
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

/// Isolated to an explicit parameter and checked on the way out, not `nonisolated(nonsending)`: Swift
/// 6.3.1's generic specialisation drops a nonsending function's isolation, and the optimiser then
/// deletes the hop back to the actor after the continuation's await (swiftlang/swift#89693). The
/// caller, trusting a nonsending callee to return on its actor, went on on the global pool, where an
/// `NMClient` attaches to GLib's global main context, which nothing iterates: the join hung. The check
/// after the await needs the actor, so the hop before it cannot be deleted.
private func gAsyncCallUnlogged<Value>(
    isolation: isolated (any Actor)?,
    start: (GAsyncReadyCallback, UnsafeMutableRawPointer) -> Void,
    finish: @escaping (_ source: OpaquePointer?, _ result: OpaquePointer?) throws -> Value
) async throws -> Value {
    defer { isolation?.preconditionIsolated("a libnm call resumed off its actor's thread") }
    return try await withCheckedThrowingContinuation(isolation: isolation) { continuation in
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
    let complete: (OpaquePointer?, OpaquePointer?) -> Void

    init(_ complete: @escaping (OpaquePointer?, OpaquePointer?) -> Void) {
        self.complete = complete
    }
}

private let completeAsyncCall: GAsyncReadyCallback = { source, result, data in
    Unmanaged<GAsyncCompletion>.fromOpaque(data!).takeRetainedValue().complete(source, result)
}
