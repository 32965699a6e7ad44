import Foundation

/// Runs blocking work (a child process waited for, a blocking read) on a thread of its own.
///
/// Swift's cooperative pool has one thread per core, two on CI's machine; a test that blocks one of them
/// for seconds stalls every other suite's async work with it, and their deadlines then fail far away.
public func onOwnThread<Value: Sendable>(_ work: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}
