import CLibNM
import Testing

@testable import NetworkManager

/// libnm objects attach to the main context of the thread that creates them, so the code between
/// two awaited GIO calls must run on the libnm thread again. An optimised build once resumed it on
/// the global pool instead: the `NMClient` created there attached to GLib's global context, which
/// nothing iterates, and `ztprov softap` hung. These tests pin the rule in the shape that broke.
@Suite(.timeLimit(.minutes(1))) struct GAsyncCallIsolationTests {
    actor LoopBound {
        let executor = GMainContextExecutor(name: "ztprov-test-gio")

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Where each step ran: on the loop thread, with the loop's context as the thread default.
        func placesOfConsecutiveCalls(_ count: Int) async throws -> [Bool] {
            try await queryRoot(times: count, then: { self.executor.isCurrentThread && onOwnedThreadDefault() })
        }

        /// A wait that times out throws; where the code after it runs is what matters here.
        func placeAfterATimedOutWait() async -> Bool {
            _ = try? await gWaitUntil(
                watching: [],
                timeout: .milliseconds(20),
                cancellable: nil,
                timedOut: CancellationError(),
                evaluate: { () -> Bool? in nil }
            )
            return executor.isCurrentThread && onOwnedThreadDefault()
        }
    }

    @Test func resumesOnTheLoopThreadBetweenConsecutiveCalls() async throws {
        let places = try await LoopBound().placesOfConsecutiveCalls(5)
        #expect(places == [true, true, true, true, true])
    }

    @Test func resumesOnTheLoopThreadAfterATimedOutWait() async {
        #expect(await LoopBound().placeAfterATimedOutWait())
    }
}

/// Whether the running thread has a main context of its own pushed, as the libnm thread has.
private func onOwnedThreadDefault() -> Bool {
    guard let context = g_main_context_get_thread_default() else { return false }
    return g_main_context_is_owner(context) != 0
}

/// Like `LibNMClient.open`: a nonsending function that makes GIO calls one after another and does
/// libnm-thread work between them. GLib runs the query on a worker thread and calls back on the
/// caller's context, so each await really leaves the thread.
private nonisolated(nonsending) func queryRoot(times: Int, then place: () -> Bool) async throws -> [Bool] {
    let root = g_file_new_for_path("/")!
    defer { g_object_unref(UnsafeMutableRawPointer(root)) }
    var places: [Bool] = []
    for _ in 0..<times {
        try await gAsyncCall("query /") { callback, data in
            g_file_query_info_async(root, "standard::type", G_FILE_QUERY_INFO_NONE, 0, nil, callback, data)
        } finish: { _, result in
            var error: UnsafeMutablePointer<GError>?
            guard let info = g_file_query_info_finish(root, result, &error) else { throw GLibError(taking: error) }
            g_object_unref(UnsafeMutableRawPointer(info))
        }
        places.append(place())
        // Off the thread, the next call would attach to a context nothing iterates and never return.
        if places.last == false { break }
    }
    return places
}
