import Foundation
import TestSupport
import Testing
import Transports
import ZhitingLAN

/// `ztprov handoff` and `ztprov discover` as built binaries against devices on loopback UDP.
@Suite struct HandoffEndToEndTests {
    static let accessToken = "AT-e2e-9f8e7d6c"

    /// Runs `ztprov handoff` against the device at `device` with ID a1b2c3d4e5f6 (both test devices' ID).
    func handoff(_ device: String, _ extra: [String] = []) async throws -> ProcessOutcome {
        let tokenFile = try temporaryFile(Self.accessToken + "\n")
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        return try await ZTProvProcess.run(
            [
                "handoff", "--device-address", device, "--device-id", "a1b2c3d4e5f6", "--local-port", "0", "--area-id",
                "42",
                "--access-token-file", tokenFile.path, "--json", "--verbose",
            ] + extra
        )
    }

    @Test(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness"))
    func handsOffThePythonDevice() async throws {
        let device = try await HarnessDeviceHost.start(zhiting: ["device_id": "a1b2c3d4e5f6", "model": "ZTSW3SLW001W"])
        let outcome = try await handoff(device.zhitingAddress)
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        #expect(outcome.result?["ok"] as? Bool == true)
        #expect(outcome.result?["server"] as? String == "gz.sc.zhitingtech.com")
        #expect(
            outcome.events.map { $0["event"] as? String } == [
                "hello-sent", "device-answered", "token-received", "info", "server-requested", "server-confirmed",
                "result",
            ])
        let sent = try #require(try device.records(event: "request").last)
        #expect(sent["method"] as? String == "set_prop.server")
        let params = try #require(sent["params"] as? [String: Any])
        #expect(params["access_token"] as? String == Self.accessToken)
        #expect(params["area_id"] as? String == "42")
        #expect(params["port"] as? Int == 54321)
        #expect(!outcome.everything.contains(Self.accessToken))
    }

    @Test(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness"))
    func theOldReservedVariantAndTheDigestChecksumReachThePythonDevice() async throws {
        let device = try await HarnessDeviceHost.start(zhiting: [
            "device_id": "a1b2c3d4e5f6", "accept_reserved": "ffff", "require_checksum": "md5-packet",
        ])
        let outcome = try await handoff(device.zhitingAddress, ["--lan-reserved", "ffff", "--lan-checksum", "digest"])
        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
    }

    @Test(.enabled(if: HarnessDeviceHost.isAvailable, "needs Tests/Harness/ztharness"))
    func anEchoOfAnotherServerExitsEight() async throws {
        let device = try await HarnessDeviceHost.start(zhiting: [
            "device_id": "a1b2c3d4e5f6", "echo_server": "elsewhere.example",
        ])
        let outcome = try await handoff(device.zhitingAddress)
        expectFailure(outcome, code: "handoff.server-mismatch", status: 8, secrets: [Self.accessToken])
        #expect(outcome.standardError.contains("elsewhere.example:54321"))
    }

    @Test func aDeviceThatNeverConfirmsExitsEight() async throws {
        let device = try LoopbackZhitingDevice(serverReply: .silent)
        let outcome = try await handoff(device.address, ["--timeout", "20"])
        expectFailure(outcome, code: "handoff.not-confirmed", status: 8, secrets: [Self.accessToken])
    }

    @Test func aDeviceThatOnlyAnswersTheHelloExitsEight() async throws {
        let device = try LoopbackZhitingDevice(conduct: .helloOnly)
        let outcome = try await handoff(device.address)
        expectFailure(outcome, code: "handoff.no-token", status: 8, secrets: [Self.accessToken])
    }

    @Test func nobodyAnsweringExitsFour() async throws {
        let outcome = try await handoff("127.0.0.1:9", ["--timeout", "1"])
        expectFailure(outcome, code: "lan.no-reply", status: 4, secrets: [Self.accessToken])
        #expect(outcome.standardError.contains("hint: Check the device finished Wi-Fi provisioning"))
    }

    @Test(arguments: LoopbackZhitingDevice.Stray.allCases)
    func strayDatagramsAreIgnored(stray: LoopbackZhitingDevice.Stray) async throws {
        let device = try LoopbackZhitingDevice(strays: [stray])
        let outcome = try await handoff(device.address)
        #expect(outcome.exitStatus == 0, "\(stray): \(outcome.standardError)")
        #expect(outcome.result?["ok"] as? Bool == true)
    }

    @Test func aDeviceThatAnswersGarbageIsABadReply() async throws {
        let device = try LoopbackZhitingDevice(strays: [.undecryptable], conduct: .straysAfterHello)
        let outcome = try await handoff(device.address)
        expectFailure(outcome, code: "lan.bad-reply", status: 8, secrets: [Self.accessToken])
    }

    @Test func ctrlCExits130AfterCleanup() async throws {
        let tokenFile = try temporaryFile(Self.accessToken)
        defer { try? FileManager.default.removeItem(at: tokenFile) }
        let outcome = try await ZTProvProcess.launch([
            "handoff", "--device-address", "127.0.0.1:9", "--local-port", "0", "--area-id", "1",
            "--access-token-file", tokenFile.path, "--json",
        ]).run(interrupting: .whenStandardErrorContains("Sending hello"))
        expectFailure(outcome, code: "interrupted", status: 130, secrets: [Self.accessToken])
    }

    @Test func aMissingAreaIsAUsageError() async throws {
        let outcome = try await ZTProvProcess.run(["handoff", "--device-id", "a1b2c3d4e5f6", "--json"])
        expectFailure(outcome, code: "usage.invalid-option", status: 2, secrets: [Self.accessToken])
        #expect(outcome.standardError.contains("--area-id"))
    }

    @Test func aTakenLocalPortExitsThree() async throws {
        let holder = try LoopbackZhitingDevice()
        let outcome = try await handoff("127.0.0.1:9", ["--local-port", "\(holder.endpoint.port)"])
        expectFailure(outcome, code: "lan.port-in-use", status: 3, secrets: [Self.accessToken])
    }

    @Test(.enabled(if: getuid() == 0, "SO_BINDTODEVICE needs root"))
    func anUnknownInterfaceExitsThree() async throws {
        let outcome = try await handoff("127.0.0.1:9", ["--lan-interface", "ztnone0"])
        expectFailure(outcome, code: "lan.interface-not-found", status: 3, secrets: [Self.accessToken])
    }
}
