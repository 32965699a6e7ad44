import TestSupport
import Testing

/// A suite sharing one harness through the `.harness(_:)` trait, as end-to-end suites of the tool do.
@Suite(.serialized, .requiresHarnessHost, .harness(["device_host": ["protocomm": ["security": 2]]]))
struct HarnessSuiteScopeTests {
    @Test func everyComponentRunsForTheSuite() async throws {
        let harness = try #require(HarnessSession.current)
        let status = try await harness.status()
        #expect(status.up && status.busSocket)
        #expect(status.netns == [harness.topology.hostNetns: true, harness.topology.deviceNetns: true])
    }

    @Test func theSuiteScenarioReachedTheDevice() async throws {
        let harness = try #require(HarnessSession.current)
        let answers = try await HarnessProbes.deviceHostAnswers(harness)
        #expect(answers["proto_ver"]?["prov"]?["sec_ver"] == 2)
        let protocomm = try await harness.received(source: .protocomm)
        #expect(protocomm.array?.contains { $0["event"] == "proto_ver" } == true)
    }
}
