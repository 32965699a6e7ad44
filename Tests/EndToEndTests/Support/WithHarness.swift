import TestSupport

/// Runs `body` with a harness brought up for `scenario`, and takes it down on every way out: return,
/// thrown error, or recorded test failure (which does not throw).
///
/// The run directory is deleted after a clean `down`; when `down` itself fails it is kept for its logs.
func withHarness<Result: Sendable>(
    scenario: JSONValue = [:],
    _ body: (HarnessSession) async throws -> Result
) async throws -> Result {
    let harness = try await HarnessSession.up(scenario: scenario)
    let result: Result
    do {
        result = try await body(harness)
    } catch {
        if (try? await harness.down()) != nil { try? harness.discardRunDirectory() }
        throw error
    }
    try await harness.down()
    try harness.discardRunDirectory()
    return result
}
