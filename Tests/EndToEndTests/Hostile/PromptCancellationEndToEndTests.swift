import Foundation
import TestSupport
import Testing

/// Class 11 at the terminal: Ctrl-C at a secret prompt, driven through a real pseudo-terminal
/// (`Tests/Harness/prompt_interrupt.py`), exits 130 at once, with echo off while the prompt waited and
/// the terminal put back afterwards, and nothing typed shown.
@Suite struct PromptCancellationEndToEndTests {
    struct Result: Decodable {
        let exit: Int32
        let echo_while_prompting: Bool
        let echo_after: Bool
        let answered_in: Double
        let shown: String
    }

    @Test(arguments: [
        ["ble", "--ssid", "Net"],
        ["handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "1"],
        ["softap", "--ssid", "Net", "--ap-ssid", "PROV_1", "--open-network", "--security", "1"],
    ])
    func ctrlCAtThePromptExits130AndRestoresTheTerminal(command: [String]) async throws {
        var random = SplitMix64(seed: 0xC7_41_C0 &+ UInt64(command.count))
        let typed = HostileRun.secret(&random)
        var launch = ProcessLaunch(
            RepositoryLayout.python,
            [
                RepositoryLayout.harnessDirectory.appending(path: "prompt_interrupt.py").path, typed,
                try ZTProvProcess.executable(),
            ] + command)
        launch.environment = HostileRun.noBus
        launch.deadline = .seconds(40)
        let outcome = try await launch.run()
        #expect(outcome.termination == .exited(0), "\(outcome)")
        let result = try JSONDecoder().decode(Result.self, from: Data(outcome.standardOutput.utf8))
        #expect(result.exit == 130, "\(result)")
        #expect(!result.echo_while_prompting, "echo stayed on at the prompt")
        #expect(result.echo_after, "the terminal was left without echo")
        #expect(result.answered_in < 3, "Ctrl-C took \(result.answered_in) s")
        #expect(!result.shown.contains(typed), "typed text shown: \(result.shown)")
        #expect(result.shown.contains("error[interrupted]"), "\(result.shown)")
    }
}
