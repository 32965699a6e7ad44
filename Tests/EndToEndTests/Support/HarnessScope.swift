import TestSupport
import Testing

/// A suite trait that brings one harness up before the suite's first test and down after its last,
/// so tests share the few seconds `up` and `down` take; tests reach it as `HarnessSession.current`.
///
/// Combine with `.requiresHarnessHost` (checked first, so a skipped suite starts nothing) and usually
/// `.serialized`, since the tests share the emulated devices and their records.
struct HarnessScope: SuiteTrait, TestScoping {
    /// The scenario the harness comes up with.
    let scenario: JSONValue

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withHarness(scenario: scenario) { harness in
            try await HarnessSession.$current.withValue(harness, operation: function)
        }
    }
}

extension HarnessSession {
    /// The harness of the enclosing `.harness(_:)` suite, `nil` outside one.
    @TaskLocal static var current: HarnessSession?
}

extension Trait where Self == HarnessScope {
    /// One harness with `scenario` for the whole suite.
    static func harness(_ scenario: JSONValue = [:]) -> Self {
        HarnessScope(scenario: scenario)
    }
}
