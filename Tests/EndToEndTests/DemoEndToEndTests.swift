import TestSupport
import Testing

@testable import ztprov

/// `ztprov demo` as the built binary: every path and both hand-offs succeed against the emulated
/// devices, the steps of a real run are printed, and no demo secret reaches either stream.
@Suite struct DemoEndToEndTests {
    static let bluFiSteps = [
        "session-started", "version", "negotiation-started", "session-ready", "mode-set", "join-requested",
        "wifi-connected", "device-id", "disconnect-requested",
    ]
    /// Without its state changes, which the device notifies beside the command's answer: how many arrive
    /// before that answer ends the run varies.
    static let improvSteps = ["session-started", "join-requested", "wifi-connected"]
    static let protocommSteps = [
        "device-described", "security-chosen", "session-established", "credentials-sent", "credentials-applied",
        "device-connected",
    ]
    static let softAPSteps = [
        "joining-hotspot", "joined-hotspot", "device-described", "security-chosen", "session-established",
        "scanning-networks", "networks", "credentials-sent", "credentials-applied", "device-connected",
        "leaving-hotspot", "left-hotspot",
    ]
    static let handoffSteps = [
        "hello-sent", "device-answered", "token-received", "info", "server-requested", "server-confirmed",
    ]

    func expectNoSecret(in outcome: ProcessOutcome, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in DemoDevices.secrets {
            #expect(!outcome.everything.contains(secret), "\(secret) was printed", sourceLocation: sourceLocation)
        }
    }

    @Test func printsEveryStepAndTheResult() async throws {
        let outcome = try await ZTProvProcess.run(["demo", "--verbose"])

        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        for line in [
            "Session ready, security V1", "Asked the device to join \"ztprov-demo-home\"",
            "BluFi: device a4cf12b0c0de joined", "Improv: provisioning an emulated ESP32",
            "emulated ESP32 (Improv) joined ztprov-demo-home", "Using security 1 with PoP",
            "emulated ESP32 (ESP protocomm) joined ztprov-demo-home as 192.168.4.23", "On MH-B0C0DF",
            "established", "SoftAP: device a4cf12b0c0df joined",
            "a4cf12b0c0de confirmed gz.sc.zhitingtech.com:54321", "a4cf12b0c0df confirmed gz.sc.zhitingtech.com:54321",
        ] {
            #expect(outcome.standardError.contains(line), "missing \(line)")
        }
        #expect(
            outcome.standardOutput.contains(
                "Demo done: 4 emulated devices provisioned; a4cf12b0c0de (BluFi) and a4cf12b0c0df (SoftAP) now use"))
        expectNoSecret(in: outcome)
    }

    @Test(arguments: [("none", "0"), ("v1", "1"), ("v2", "2")])
    func emitsTheEventsOfEveryPathAsJSON(bluFi: String, softAP: String) async throws {
        let outcome = try await ZTProvProcess.run(
            ["demo", "--json", "--blufi-security", bluFi, "--softap-security", softAP])

        #expect(outcome.exitStatus == 0, "\(outcome.standardError)")
        let names = outcome.events.compactMap { $0["event"] as? String }
        let negotiation: Set = ["negotiation-started"]
        let bluFiSteps = bluFi == "none" ? Self.bluFiSteps.filter { !negotiation.contains($0) } : Self.bluFiSteps
        let varying: Set = ["device-connecting", "wifi-status", "improv-state"]
        #expect(
            names.filter { !varying.contains($0) }
                == ["path"] + bluFiSteps + Self.handoffSteps + ["path"] + Self.improvSteps + ["path"]
                + Self.protocommSteps + ["path"] + Self.softAPSteps + Self.handoffSteps + ["result"])
        let paths = outcome.events.filter { $0["event"] as? String == "path" }.compactMap { $0["path"] as? String }
        #expect(paths == ["blufi", "improv", "protocomm", "softap"])
        let ready = outcome.events.first { $0["event"] as? String == "session-ready" }
        #expect(ready?["security"] as? String == bluFi)
        let session = outcome.events.last { $0["event"] as? String == "session-established" }
        #expect(session?["security"] as? Int == Int(softAP))
        let result = try #require(outcome.result)
        #expect(result["ok"] as? Bool == true)
        #expect(result["code"] as? String == "ok")
        #expect(result["blufi_device"] as? String == "a4cf12b0c0de")
        #expect(result["softap_device"] as? String == "a4cf12b0c0df")
        #expect(result["server"] as? String == "gz.sc.zhitingtech.com")
        let ble = try #require(result["ble"] as? [[String: Any]])
        #expect(ble.compactMap { $0["protocol"] as? String } == ["blufi", "improv", "protocomm"])
        expectNoSecret(in: outcome)
    }

    @Test func rejectsAnUnknownSecurity() async throws {
        let outcome = try await ZTProvProcess.run(["demo", "--json", "--softap-security", "3"])

        #expect(outcome.exitStatus == 2)
        #expect(outcome.result?["code"] as? String == "usage.invalid-option")
    }
}
