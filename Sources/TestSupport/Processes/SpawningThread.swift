import Foundation

/// The one thread that starts every child, and never ends: Linux sends a child its parent-death
/// signal when the *thread* that started it ends, and the threads tests run on come and go.
final class SpawningThread: @unchecked Sendable {
    static let shared = SpawningThread()

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [() -> Void] = []

    private init() {
        let thread = Thread { [self] in serve() }
        thread.name = "TestSupport child spawner"
        thread.start()
    }

    /// Runs `body` on the spawning thread and returns its result; the caller blocks meanwhile.
    func run<Value>(_ body: @escaping () throws -> Value) throws -> Value {
        let done = DispatchSemaphore(value: 0)
        let result = ResultBox<Value>()
        condition.withLock {
            jobs.append {
                result.value = Result { try body() }
                done.signal()
            }
            condition.signal()
        }
        done.wait()
        return try result.value!.get()
    }

    private func serve() {
        while true {
            let job = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job()
        }
    }

    private final class ResultBox<Value>: @unchecked Sendable {
        var value: Result<Value, any Error>?
    }
}
