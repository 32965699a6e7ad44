import Foundation
import TestSupport
import Testing

/// `ztprov doctor` as the built binary on this machine, whose kernel has no Bluetooth.
@Suite struct DoctorEndToEndTests {
    /// Whether this kernel lacks AF_BLUETOOTH, the case CI runs in.
    static let kernelLacksBluetooth: Bool = {
        let descriptor = socket(AF_BLUETOOTH, Int32(SOCK_RAW.rawValue), 1)
        if descriptor >= 0 { close(descriptor) }
        return descriptor < 0 && errno == EAFNOSUPPORT
    }()

    @Test(.enabled(if: kernelLacksBluetooth, "the kernel has Bluetooth"))
    func aKernelWithoutBluetoothFailsTheBLECheckWithAHint() async throws {
        let outcome = try await ZTProvProcess.run(["doctor", "--json", "--for", "ble"])

        #expect(outcome.exitStatus == 3, "\(outcome.standardError)")
        let checks = outcome.events.filter { $0["event"] as? String == "check" }
        #expect(
            checks.compactMap { $0["name"] as? String } == [
                "kernel-bluetooth", "controllers", "bluetoothd", "adapter-powered", "rfkill-bluetooth", "rfkill-wifi",
                "station-slots", "networkmanager", "wifi-device", "permissions",
            ])
        let kernel = try #require(checks.first)
        #expect(kernel["status"] as? String == "fail")
        #expect(kernel["code"] as? String == "host.no-kernel-bluetooth")
        #expect((kernel["hint"] as? String)?.isEmpty == false)
        #expect(outcome.result?["code"] as? String == "host.no-kernel-bluetooth")
        #expect(outcome.result?["exit_status"] as? Int == 3)
        #expect(outcome.standardError.contains("error[host.no-kernel-bluetooth]: "))
        #expect(outcome.standardError.contains("\nhint: "))
    }

    @Test(.enabled(if: kernelLacksBluetooth, "the kernel has Bluetooth"))
    func theTableNamesEveryCheckAndBothPaths() async throws {
        let outcome = try await ZTProvProcess.run(["doctor"])

        #expect(outcome.exitStatus == 3)
        #expect(outcome.standardOutput.contains("FAIL  kernel-bluetooth"))
        #expect(outcome.standardOutput.contains("hint: Load the module"))
        #expect(outcome.standardOutput.contains("BLE: blocked by kernel-bluetooth"))
        #expect(outcome.standardOutput.contains("SoftAP: "))
    }

    @Test(.requiresHarnessHost)
    func theHarnessBusHasBluetoothdAndNetworkManagerWithItsWiFiDevice() async throws {
        try await withHarness(scenario: ["bluez": ["adapters": [["name": "hci0", "powered": true]]]]) { harness in
            var launch = try ZTProvProcess.launch(["doctor", "--json", "--for", "softap"])
            launch.environment = harness.toolEnvironment
            let outcome = try await launch.run()

            let checks = Dictionary(
                outcome.events.filter { $0["event"] as? String == "check" }.map { ($0["name"] as? String ?? "", $0) },
                uniquingKeysWith: { first, _ in first })
            #expect(checks["bluetoothd"]?["status"] as? String == "ok", "\(outcome.standardOutput)")
            #expect(checks["adapter-powered"]?["status"] as? String == "ok")
            #expect((checks["adapter-powered"]?["detail"] as? String)?.contains("hci0 ") == true)
            #expect(checks["networkmanager"]?["status"] as? String == "ok")
            #expect(checks["wifi-device"]?["status"] as? String == "ok")
            #expect((checks["wifi-device"]?["detail"] as? String)?.contains(harness.topology.hostInterface) == true)
            let blocksSoftAP = checks.values.contains {
                $0["status"] as? String == "fail" && ($0["required_for"] as? [String])?.contains("softap") == true
            }
            #expect(outcome.exitStatus == (blocksSoftAP ? 3 : 0), "\(outcome.standardError)")
        }
    }
}
