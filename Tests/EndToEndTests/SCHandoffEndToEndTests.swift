import Foundation
import TestSupport
import Testing

/// The hand-off with the access token fetched from a (fake) SC by session cookie.
@Suite struct SCHandoffEndToEndTests {
    func handoff(session: String, device: String) async throws -> (ProcessOutcome, FakeSCServer) {
        let sc = try await FakeSCServer.start()
        let sessionFile = try temporaryFile(session + "\n")
        defer { try? FileManager.default.removeItem(at: sessionFile) }
        let outcome = try await ZTProvProcess.run([
            "handoff", "--device-address", device, "--local-port", "0", "--area-id", "7",
            "--sc-url", sc.baseURL, "--sc-session-file", sessionFile.path, "--json", "--verbose",
        ])
        return (outcome, sc)
    }

    @Test(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness"))
    func theTokenFromSCReachesTheDeviceAndNothingElse() async throws {
        let device = try await HarnessDeviceHost.start(zhiting: [:])
        let (outcome, _) = try await handoff(session: "_session_=good", device: device.zhitingAddress)
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let params = try #require(try device.records(event: "request").last?["params"] as? [String: Any])
        #expect(params["access_token"] as? String == FakeSCServer.token)
        #expect(params["server"] as? String == "127.0.0.1", "the server defaults to the SC host, as iOS derives it")
        #expect(!outcome.everything.contains(FakeSCServer.token))
        #expect(!outcome.everything.contains("good"), "the session cookie stays secret too")
        #expect(outcome.events.contains { $0["event"] as? String == "sc-token" && $0["expires_in"] as? Int == 3600 })
    }

    @Test func anExpiredSessionExitsSixBeforeTouchingTheLAN() async throws {
        let device = try LoopbackZhitingDevice()
        let (outcome, _) = try await handoff(session: "expired", device: device.address)
        #expect(outcome.exitStatus == 6)
        #expect(
            outcome.standardError.contains(
                "error[sc.token-rejected]: SC refused the access-token request (login lost, status 2008)."))
        #expect(outcome.standardError.contains("hint: The session has probably expired"))
        #expect(!outcome.events.contains { $0["event"] as? String == "hello-sent" })
    }

    @Test func anSCServerErrorExitsEight() async throws {
        let (outcome, _) = try await handoff(session: "broken", device: "127.0.0.1:9")
        #expect(outcome.exitStatus == 8)
        #expect(outcome.result?["code"] as? String == "sc.http-error")
    }
}
