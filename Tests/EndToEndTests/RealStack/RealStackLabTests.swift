import Foundation
import TestSupport
import Testing

/// ztprov's flows against the real Linux stacks, judged from one boot of the real-stack lab
/// (`Tests/RealStack/run`, see `RealStackLab`): real bluetoothd 5.66 behind Bumble-driven hci_vhci
/// controllers serving the harness's BluFi model, real NetworkManager + wpa_supplicant joining
/// hostapd on mac80211_hwsim, the harness's protocomm and Zhiting device hosts behind the hotspot
/// and on the home LAN. No mock on the path.
@Suite(.serialized, RealStackLab.condition)
struct RealStackLabTests {
    static let secrets = ["lab-wifi-secret-31", "AT-lab-7f00ba11", "lab-pop-5150", "hotspot-pass-99"]
    static let kernelControllers = ["F0:00:00:00:00:01", "F0:00:00:00:00:02"]

    static func scenario(_ name: String) async throws -> RealStackLab.Scenario {
        try await RealStackLab.shared.scenario(name)
    }

    static func expect(
        _ scenario: RealStackLab.Scenario, status: Int, code: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(scenario["lab_error"] == nil, "\(scenario)", sourceLocation: sourceLocation)
        #expect(scenario.exitStatus == status, "\(scenario)", sourceLocation: sourceLocation)
        if let code {
            #expect(scenario.everything.contains(code), "\(scenario)", sourceLocation: sourceLocation)
        }
        for secret in secrets {
            #expect(
                !scenario.everything.contains(secret), "\(scenario.name) printed a secret",
                sourceLocation: sourceLocation)
        }
    }

    /// After a BLE run the link is down on both sides: bluetoothd's Device1 is not connected on any
    /// adapter, and the peripheral has no connection.
    static func expectLinkReleased(
        _ record: JSONValue?, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let views = record?["bluetoothd_connected_after"]
        for controller in ["hci0", "hci1"] {
            #expect(
                views?[controller] != .bool(true), "\(name): \(controller) still connected",
                sourceLocation: sourceLocation)
        }
        #expect(record?["peripheral"]?["connected_now"] == .bool(false), "\(name)", sourceLocation: sourceLocation)
    }

    /// After a SoftAP run the host is back on its home network and no profile of ztprov's is left.
    static func expectHomeRestored(_ scenario: RealStackLab.Scenario, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let wifi = scenario["wifi_after"]
        #expect(
            wifi?["active"] == ["home:wlan0"], "\(scenario.name): \(String(describing: wifi))",
            sourceLocation: sourceLocation)
        #expect(
            wifi?["profiles"] == ["home"], "\(scenario.name): \(String(describing: wifi))",
            sourceLocation: sourceLocation)
        #expect(scenario["home_reconnect_needed"] == nil, "\(scenario.name)", sourceLocation: sourceLocation)
    }

    // MARK: doctor

    @Test func doctorReadyOnAKernelWithBluetooth() async throws {
        let doctor = try await Self.scenario("doctor-ready")
        Self.expect(doctor, status: 0)
        for address in Self.kernelControllers { #expect(doctor.everything.contains(address), "\(doctor)") }
    }

    @Test(arguments: [
        ("doctor-adapter-down", "host.adapter-powered-off"),
        ("doctor-rfkill-soft-blocked", "host.radio-blocked"),
        ("doctor-no-bluetoothd", "host.bluetoothd-absent"),
        ("doctor-no-networkmanager", "host.networkmanager-absent"),
    ])
    func doctorNamesEachBlocker(name: String, code: String) async throws {
        Self.expect(try await Self.scenario(name), status: 3, code: code)
    }

    /// bluetoothd shows a soft-blocked adapter as plain "off"; `ble` must still name rfkill, as doctor does.
    @Test func bleOnASoftBlockedAdapterNamesRfkill() async throws {
        let doctor = try await Self.scenario("doctor-rfkill-soft-blocked")
        let ble = RealStackLab.Scenario(name: "ble under rfkill", record: doctor["ble"] ?? .null)
        Self.expect(ble, status: 3, code: "host.adapter-blocked")
        #expect(ble.standardError.contains("rfkill unblock"), "\(ble)")
        #expect(!ble.standardError.contains("bluetoothctl power on"), "\(ble)")
    }

    // MARK: scan and ble

    @Test func scanListsTheBumblePeripheral() async throws {
        let scan = try await Self.scenario("scan")
        Self.expect(scan, status: 0)
        #expect(scan.everything.contains(scan["address"]?.string ?? "?"), "\(scan)")
    }

    @Test(arguments: [("ble-v1-handoff", "v1"), ("ble-v2", "v2"), ("ble-none", nil)])
    func bleProvisionsThroughRealBluetoothd(name: String, security: String?) async throws {
        let ble = try await Self.scenario(name)
        Self.expect(ble, status: 0)
        #expect(ble["peripheral"]?["sta_ssid"] == "HomeNet", "\(ble)")
        if let security { #expect(ble["peripheral"]?["security"] == .string(security), "\(ble)") }
        #expect(ble["peripheral"]?["mtus"] == [517], "the stacks negotiate 517: \(ble)")
        Self.expectLinkReleased(ble.record, name)
    }

    @Test func bleHandsOffOverTheRealWiFiLAN() async throws {
        let ble = try await Self.scenario("ble-v1-handoff")
        Self.expect(ble, status: 0)
        #expect(ble["handoff_requests"] == 1, "\(ble)")
    }

    @Test func bleWrongWiFiPasswordIsTheDevicesReason() async throws {
        let ble = try await Self.scenario("ble-wrong-password")
        Self.expect(ble, status: 7)
        Self.expectLinkReleased(ble.record, ble.name)
    }

    @Test func bleWithoutTheDeviceIsNotFound() async throws {
        Self.expect(try await Self.scenario("ble-no-device"), status: 4, code: "ble.device-not-found")
    }

    @Test func bleLinkDropDuringNegotiationIsALinkFailure() async throws {
        let ble = try await Self.scenario("ble-link-drop-negotiation")
        #expect(ble["lab_error"] == nil, "\(ble)")
        #expect(ble.exitStatus == 5 || ble.exitStatus == 0, "\(ble)")
        if ble.exitStatus == 5 {
            #expect(ble.standardError.contains("negotiating keys with the device"), "\(ble)")
        }
        Self.expectLinkReleased(ble.record, ble.name)
    }

    @Test(arguments: [("ble-adapter-hci1", 1), ("ble-adapter-address", 1), ("ble-adapter-slot", 1)])
    func bleAdapterChoiceConnectsThroughThatController(name: String, controller: Int) async throws {
        let ble = try await Self.scenario(name)
        Self.expect(ble, status: 0)
        let connected = ble["peripheral"]?["events"]?.array?.first { $0["event"] == "connected" }
        // Bumble names the central by address and type: "F0:00:00:00:00:02/P".
        #expect(connected?["detail"]?.string?.hasPrefix(Self.kernelControllers[controller]) == true, "\(ble)")
    }

    @Test func bleCtrlCExitsWith130AndReleasesTheLink() async throws {
        let ble = try await Self.scenario("ble-ctrl-c")
        Self.expect(ble, status: 130)
        // bluetoothd answers Disconnect after its disconnect timer (~2–3 s): the user is told why they wait.
        #expect(ble.standardError.contains("Interrupted: releasing the device"), "\(ble)")
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// bluetoothd keeps the device's GATT objects (without `MTU`) for ~30 s after a disconnect; a second
    /// run within that time must still write at the negotiated MTU, so it needs as few frames as the first.
    @Test func bleQuickReconnectUsesTheNegotiatedMTU() async throws {
        let again = try await Self.scenario("ble-quick-reconnect")
        #expect(again["lab_error"] == nil, "\(again)")
        #expect(again["first"]?["status"] == 0, "\(again)")
        #expect(again["second"]?["status"] == 0, "\(again)")
        #expect(again["second"]?["stderr"]?.string?.contains("ATT MTU 517") == true, "\(again)")
        #expect(again["second"]?["frames"] == again["first"]?["frames"], "\(again)")
    }

    @Test func bleStillProvisionsAfterTheDevicesGATTDatabaseChanged() async throws {
        let changed = try await Self.scenario("ble-gatt-changed")
        #expect(changed["first"]?["status"] == 0, "\(changed)")
        #expect(changed["second"]?["status"] == 0, "\(changed)")
        #expect(changed["second"]?["peripheral"]?["sta_ssid"] == "HomeNet", "\(changed)")
    }

    // MARK: softap

    @Test(arguments: ["softap-sec1-wpa2-handoff", "softap-sec2-open"])
    func softapProvisionsThroughTheRealNetworkManager(name: String) async throws {
        let softap = try await Self.scenario(name)
        Self.expect(softap, status: 0)
        Self.expectHomeRestored(softap)
    }

    @Test func softapHandsOffOverTheRealWiFiLAN() async throws {
        let softap = try await Self.scenario("softap-sec1-wpa2-handoff")
        Self.expect(softap, status: 0)
        #expect(softap["handoff_requests"] == 1, "\(softap)")
    }

    @Test func softapWrongHotspotPasswordIsNoSecrets() async throws {
        let softap = try await Self.scenario("softap-wrong-hotspot-password")
        Self.expect(softap, status: 6, code: "softap.hotspot-password-rejected")
        #expect(softap.standardError.contains("NO_SECRETS"), "\(softap)")
        Self.expectHomeRestored(softap)
    }

    @Test func softapWithoutTheHotspotIsNotFound() async throws {
        let softap = try await Self.scenario("softap-hotspot-absent")
        Self.expect(softap, status: 4)
        Self.expectHomeRestored(softap)
    }

    @Test func softapCtrlCExitsWith130AndRestoresTheHomeNetwork() async throws {
        let softap = try await Self.scenario("softap-ctrl-c")
        Self.expect(softap, status: 130)
        Self.expectHomeRestored(softap)
    }

    /// A hotspot gone within the last ~30 s is still in NetworkManager's scan list. ztprov trusts the list,
    /// activates the profile and leaves the host offline until NetworkManager gives up (`ssid-not-found`),
    /// instead of checking the access point's `LastSeen` (or a fresh scan) and failing fast with 4.
    @Test func softapFailsFastForAHotspotThatJustVanished() async throws {
        let softap = try await Self.scenario("softap-hotspot-vanished")
        #expect(softap["lab_error"] == nil, "\(softap)")
        Self.expectHomeRestored(softap)
        #expect(softap.exitStatus == 4, "\(softap)")
        withKnownIssue("ztprov trusts a stale scan entry (LastSeen not checked yet)") {
            // NetworkManager's own give-up means the profile was activated and the host left its network.
            #expect(!softap.standardError.contains("SSID_NOT_FOUND"), "\(softap)")
        }
    }

    // MARK: batch

    @Test func batchProvisionsOneUnitPerControllerWithRecords() async throws {
        let batch = try await Self.scenario("batch-two-adapters")
        Self.expect(batch, status: 0)
        let peripherals = batch["peripherals"]?.array ?? []
        #expect(peripherals.count == 2 && peripherals.allSatisfy { $0["sta_ssid"] == "HomeNet" }, "\(batch)")
        let records = (batch["report"]?.string ?? "").split(separator: "\n")
        #expect(records.count == 2, "\(batch)")
        for address in batch["addresses"]?.array?.compactMap(\.string) ?? [] {
            #expect(records.contains { $0.contains(address) }, "\(address) has no record: \(batch)")
        }
    }
}
