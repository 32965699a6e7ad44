import Foundation
import TestSupport
import Testing

/// `ztprov discover` as a built binary, unicast to devices on loopback.
@Suite struct DiscoverEndToEndTests {
    @Test(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness"))
    func listsThePythonDeviceInATable() async throws {
        let device = try await HarnessDeviceHost.start(zhiting: [
            "device_id": "0a1b2c3d4e5f", "model": "ZTSW3SLW001W", "sw_ver": "1.2.3",
        ])
        let outcome = try await ZTProvProcess.run([
            "discover", "--device-address", device.zhitingAddress, "--local-port", "0",
        ])
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID            IP         KIND    MODEL") == true, "\(outcome.standardOutput)")
        #expect(
            lines.dropFirst().first?.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                == ["0a1b2c3d4e5f", "127.0.0.1", "device", "ZTSW3SLW001W", "1.2.3", "1.0", "-"])
        #expect(outcome.standardError.contains("Found 0a1b2c3d4e5f at 127.0.0.1"))
    }

    @Test(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness"))
    func reportsAHubAsJSONLines() async throws {
        let hub = try await HarnessDeviceHost.start(zhiting: [
            "model": "MH-SA00DCLB001W", "sw_ver": "2.4.1",
            "info_extra": ["sa_id": "sa-77", "port": 37965] as [String: any Sendable],
        ])
        let outcome = try await ZTProvProcess.run([
            "discover", "--device-address", hub.zhitingAddress, "--local-port", "0", "--json",
        ])
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let device = try #require(outcome.events.first { $0["event"] as? String == "device" })
        #expect(device["kind"] as? String == "smart-assistant")
        #expect(device["sa_id"] as? String == "sa-77")
        #expect(device["port"] as? Int == 37965)
        #expect(device["id"] as? String == hub.deviceID)
        #expect(outcome.result?["count"] as? Int == 1)
        #expect(!hub.token.isEmpty)
        #expect(!outcome.everything.lowercased().contains(hub.token), "the device token in its info is never shown")
    }

    @Test func anEmptyLANExitsFourWithAHint() async throws {
        let outcome = try await ZTProvProcess.run(
            ["discover", "--device-address", "127.0.0.1:9", "--local-port", "0", "--listen", "0.5", "--json"])
        #expect(outcome.exitStatus == 4)
        #expect(
            outcome.standardError.contains("error[lan.no-reply]: No Zhiting device answered the hello at 127.0.0.1:9"))
        #expect(outcome.standardError.contains("hint: "))
        #expect(outcome.result?["code"] as? String == "lan.no-reply")
    }

    @Test func strayRepliesDoNotAddDevices() async throws {
        let device = try LoopbackZhitingDevice(strays: [.wrongDeviceID, .wrongSourcePort, .truncated])
        let outcome = try await ZTProvProcess.run([
            "discover", "--device-address", device.address, "--device-id", "a1b2c3d4e5f6", "--local-port", "0",
            "--json",
        ])
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let devices = outcome.events.filter { $0["event"] as? String == "device" }
        #expect(devices.map { $0["id"] as? String } == ["a1b2c3d4e5f6"])
        #expect(devices.first?["hw_ver"] as? String == "esp32c3")
    }
}
