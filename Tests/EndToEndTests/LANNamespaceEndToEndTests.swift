import Foundation
import TestSupport
import Testing

/// `ztprov discover` and `ztprov handoff` across the harness's veth pair: real broadcasts pinned to the
/// host interface reach the Python Zhiting device in the device namespace, and nothing else.
@Suite(
    .serialized, .requiresHarnessHost,
    .harness(["device_host": ["zhiting": ["device_id": "a1b2c3d4e5f6", "model": "ZTSW3SLW001W"]]])
)
struct LANNamespaceEndToEndTests {
    static let accessToken = "AT-netns-5a4b3c2d"

    private func ztprov(_ arguments: [String]) async throws -> ProcessOutcome {
        let harness = try #require(HarnessSession.current)
        var launch = try ZTProvProcess.launch(arguments + ["--lan-interface", harness.topology.hostInterface])
        launch.networkNamespace = harness.topology.hostNetns
        launch.environment = ["ZT_E2E_TOKEN": Self.accessToken]
        return try await launch.run()
    }

    @Test func discoverFindsTheDeviceByBroadcast() async throws {
        let outcome = try await ztprov(["discover", "--json"])
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let devices = outcome.events.filter { $0["event"] as? String == "device" }
        #expect(devices.map { $0["id"] as? String } == ["a1b2c3d4e5f6"])
        #expect(devices.first?["ip"] as? String == "192.168.4.1")
        #expect(devices.first?["model"] as? String == "ZTSW3SLW001W")
    }

    @Test func handoffFindsTheDeviceAndIsConfirmed() async throws {
        let outcome = try await ztprov([
            "handoff", "--device-id", "a1b2c3d4e5f6", "--area-id", "7", "--access-token-env", "ZT_E2E_TOKEN", "--json",
            "--verbose",
        ])
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        #expect(outcome.result?["ok"] as? Bool == true)
        #expect(!outcome.everything.contains(Self.accessToken))
        let harness = try #require(HarnessSession.current)
        let received = try await harness.received(source: .zhiting)
        let serverRequest = received.array?.last { $0["method"]?.string == "set_prop.server" }
        #expect(serverRequest?["params"]?["access_token"]?.string == Self.accessToken)
        #expect(serverRequest?["params"]?["area_id"]?.string == "7")
        #expect(serverRequest?["params"]?["server"]?.string == "gz.sc.zhitingtech.com")
    }
}
