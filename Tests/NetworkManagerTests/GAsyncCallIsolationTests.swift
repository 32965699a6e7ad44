import CLibNM
import TestSupport
import Testing

@testable import NetworkManager

/// libnm objects attach to the main context of the thread that creates them, so the code after an
/// awaited GIO call must run on the libnm thread again. An optimised build once went on on the global
/// pool after a generic nonsending helper returned (see `gAsyncCallUnlogged`): `LibNMClient.open`
/// created its `NMClient` there, on GLib's global context, which nothing iterates, and every join hung.
/// NetworkManager is compiled optimised in every build (Package.swift), so these tests see that code
/// as it ships; the time limit names a hang.
@Suite(.enabled(if: MockNMTools.hasBus, "needs dbus-daemon and dbus-send"), .timeLimit(.minutes(1)))
struct GAsyncCallIsolationTests {
    actor LoopBound {
        let executor = GMainContextExecutor(name: "ztprov-test-gio")

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        /// Opening a client is two GIO calls (connect, then the client's start-up) with libnm work
        /// between them; where the code after them runs is what matters here.
        func placeAfterOpeningAClient(busAddress: String) async throws -> Bool {
            let client = try await LibNMClient.open(busAddress: busAddress, cancellable: GCancellableHandle())
            return !client.isNetworkManagerRunning && executor.isCurrentThread && onOwnedThreadDefault()
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

    @Test func opensAClientAndResumesOnTheLoopThread() async throws {
        try await PrivateSystemBus.with { bus in
            let resumedOnTheLoopThread = try await LoopBound().placeAfterOpeningAClient(busAddress: bus.address)
            #expect(resumedOnTheLoopThread)
        }
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
