/// Runs `body`, then `cleanup` however `body` ends: a `defer` for clean-up that has to await.
public func withCleanup<Result>(
    _ body: () async throws -> Result, cleanup: () async -> Void
) async throws -> Result {
    let result: Result
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
