import Foundation
import TestSupport
import Testing

/// The Python harness's own test suite (device models, mocks, the bleak check, lifecycle) and the tests of
/// the benchmarks' measuring code.
///
/// Run from here so that `swift test` is the one command that runs every test. pytest skips the parts
/// that need root by itself, and counts them in its summary.
@Suite(.requiresPythonModules("pytest", "dbusmock"))
struct HarnessPythonSuiteTests {
    @Test func pytestPasses() async throws {
        // A guard against a hang, not a speed check: alone the suite takes ~35 s, beside the other end-to-end
        // suites on two loaded cores it has taken over 180 s.
        let summary = try await Self.pytest(in: RepositoryLayout.harnessDirectory, deadline: .seconds(480))
        print("Harness pytest: \(summary)")
        #expect(summary.contains(" passed"))
    }

    /// The benchmarks run only by hand, so their arithmetic and harness glue are checked here.
    @Test func benchmarkPytestPasses() async throws {
        let summary = try await Self.pytest(in: RepositoryLayout.benchmarksDirectory, deadline: .seconds(120))
        #expect(summary.contains(" passed") && !summary.contains("skipped"), "\(summary)")
    }

    /// Runs the pytest suite under `directory`'s `tests`, expects it to pass, and returns its summary line.
    private static func pytest(in directory: URL, deadline: Duration) async throws -> String {
        // No cache provider: the run must not write .pytest_cache into the source tree.
        var pytest = ProcessLaunch(RepositoryLayout.python, ["-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"])
        pytest.workingDirectory = directory
        pytest.deadline = deadline
        let outcome = try await pytest.run()
        #expect(outcome.succeeded, "\(outcome)")
        return outcome.standardOutput.split(separator: "\n").last.map(String.init) ?? "(no output)"
    }
}
