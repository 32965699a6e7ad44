import Foundation
import TestSupport
import Testing

/// ztprov's flows against the real Linux stacks, judged from one boot of the real-stack lab
/// (`Tests/RealStack/run`, see `RealStackLab`): real bluetoothd 5.66 behind Bumble-driven hci_vhci
/// controllers serving the harness's BluFi and Improv models, real NetworkManager + wpa_supplicant joining
/// hostapd on mac80211_hwsim, the harness's protocomm and Zhiting device hosts behind the hotspot
/// and on the home LAN. No mock on the path.
@Suite(.serialized, RealStackLab.condition)
struct RealStackLabTests {
    static let secrets = ["lab-wifi-secret-31", "AT-lab-7f00ba11", "lab-pop-5150", "hotspot-pass-99"]
    static let kernelControllers = ["F0:00:00:00:00:01", "F0:00:00:00:00:02", "F0:00:00:00:00:03", "F0:00:00:00:00:04"]

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

    static func number(_ value: JSONValue?) -> Double? {
        guard case .number(let number) = value else { return nil }
        return number
    }

    /// After a BLE run the link is down on both sides: bluetoothd's Device1 is not connected on any
    /// adapter, and the peripheral has no connection.
    static func expectLinkReleased(
        _ record: JSONValue?, _ name: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let views = record?["bluetoothd_connected_after"]
        for controller in kernelControllers.indices.map({ "hci\($0)" }) {
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

    /// A device that answers the MTU exchange with 23 (a small ATT buffer): bluetoothd settles on 23 and
    /// ztprov splits every message into 20-byte writes, so the same conversation needs more frames.
    @Test(arguments: [("ble-mtu23-v1", "ble-v1-handoff", "v1"), ("ble-mtu23-v2", "ble-v2", "v2")])
    func bleProvisionsAtAForcedSmallMTU(name: String, atFullMTU: String, security: String) async throws {
        let ble = try await Self.scenario(name)
        Self.expect(ble, status: 0)
        #expect(ble["peripheral"]?["mtus"] == [23], "\(ble)")
        #expect(ble["peripheral"]?["security"] == .string(security), "\(ble)")
        #expect(ble["peripheral"]?["sta_ssid"] == "HomeNet", "\(ble)")
        #expect(ble.standardError.contains("ATT MTU 23"), "\(ble)")
        Self.expectLinkReleased(ble.record, name)
        let full = try await Self.scenario(atFullMTU)
        let frames = (
            small: Self.number(ble["peripheral"]?["frames"]), full: Self.number(full["peripheral"]?["frames"])
        )
        #expect((frames.small ?? 0) > (frames.full ?? .infinity), "frames at MTU 23 vs 517: \(frames)")
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

    /// Two devices in range and none named: with no terminal to ask on, refused before either is touched and
    /// both listed; on a terminal, the second row picked with its number is the one provisioned; with `--pick
    /// first`, exactly one is sent the settings and the other is never connected.
    @Test func severalDevicesNeedAChoiceAndOnlyTheChosenOneIsProvisioned() async throws {
        let scenario = try await Self.scenario("ble-several-devices")
        #expect(scenario["lab_error"] == nil, "\(scenario)")
        func run(_ name: String) -> RealStackLab.Scenario {
            RealStackLab.Scenario(name: "ble-several-devices \(name)", record: scenario[name] ?? .null)
        }
        func provisioned(_ run: RealStackLab.Scenario) -> [String] {
            (run["peripherals"]?.array ?? []).filter { $0["sta_ssid"] == "HomeNet" }.compactMap { $0["name"]?.string }
        }
        func connections(_ run: RealStackLab.Scenario) -> [Double?] {
            run["peripherals"]?.array?.map { Self.number($0["connections"]) } ?? []
        }

        let refused = run("refused")
        Self.expect(refused, status: 2, code: "ble.several-devices")
        for address in refused["addresses"]?.array?.compactMap(\.string) ?? [] {
            #expect(refused.standardOutput.contains(address), "\(refused)")
        }
        #expect(connections(refused) == [0, 0], "\(refused)")

        let chosen = run("chosen")
        #expect(chosen.exitStatus == 0, "\(chosen)")
        let terminal = try JSONDecoder().decode(JSONValue.self, from: Data(chosen.standardOutput.utf8))
        let transcript = terminal["transcript"]?.string ?? ""
        #expect(terminal["status"] == 0 && terminal["appeared"] == .bool(true), "\(transcript)")
        let name = try #require(provisioned(chosen).first, "\(transcript)")
        #expect(provisioned(chosen) == [name] && transcript.contains("Chosen: \(name)"), "\(transcript)")
        #expect(connections(chosen).filter { $0 == 0 }.count == 1, "\(chosen)")

        let picked = run("picked")
        Self.expect(picked, status: 0)
        #expect(provisioned(picked).count == 1, "\(picked)")
        #expect(connections(picked).filter { $0 == 0 }.count == 1, "\(picked)")
    }

    /// A network the device does not hear: `--check-network` sends nothing and says so (7,
    /// `network.not-heard`); a plain run sends the settings and explains the failed join from the device's scan.
    @Test func aNetworkTheDeviceDoesNotHearIsRefusedOrExplained() async throws {
        let scenario = try await Self.scenario("ble-network-checks")
        #expect(scenario["lab_error"] == nil, "\(scenario)")
        let checked = RealStackLab.Scenario(name: "ble-network-checks checked", record: scenario["checked"] ?? .null)
        Self.expect(checked, status: 7, code: "network.not-heard")
        #expect(checked.standardError.contains("Nothing was sent."), "\(checked)")
        #expect(checked["peripheral"]?["sta_ssid"] == .null, "\(checked)")

        let joined = RealStackLab.Scenario(name: "ble-network-checks joined", record: scenario["joined"] ?? .null)
        Self.expect(joined, status: 7)
        #expect(joined.standardError.contains("does not hear \"Elsewhere\""), "\(joined)")
        #expect(joined["peripheral"]?["sta_ssid"] == "Elsewhere", "\(joined)")
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

    /// A dropped SSH session (SIGHUP) while the host is on the device's hotspot, the home profile not
    /// autoconnecting: ztprov's own restore brings the home network back, no profile is left, and the JSON
    /// result names the hang-up (exit 129). NetworkManager alone would have left the host offline.
    @Test func softapSIGHUPRestoresTheHomeNetworkItself() async throws {
        let softap = try await Self.scenario("softap-sighup")
        Self.expect(softap, status: 129, code: "interrupted.hangup")
        Self.expectHomeRestored(softap)
        #expect(softap.standardOutput.contains("\"event\":\"left-hotspot\""), "\(softap)")
        #expect(softap.standardOutput.contains("\"code\":\"interrupted.hangup\""), "\(softap)")
    }

    /// A hotspot gone a moment ago is still in NetworkManager's scan list (with a recent LastScan), and every
    /// scan within 30 s reports it again from the kernel's cache, its `LastSeen` moving by NetworkManager's
    /// rounding. ztprov must not activate it, which would leave the host offline until NetworkManager gives
    /// up (`SSID_NOT_FOUND`): no scan heard it since the search began, so it fails with 4 first.
    @Test func softapFailsFastForAHotspotThatJustVanished() async throws {
        let softap = try await Self.scenario("softap-hotspot-vanished")
        Self.expect(softap, status: 4, code: "softap.hotspot-not-found")
        Self.expectHomeRestored(softap)
        #expect(!softap.standardError.contains("SSID_NOT_FOUND"), "\(softap)")
        #expect(!softap.standardError.contains("AddAndActivate"), "the hotspot was activated: \(softap)")
        #expect(softap.standardError.contains("but no scan since has seen it"), "\(softap)")
    }

    // MARK: batch

    /// Six units over four controllers: every unit has one final record naming its adapter, and that is the
    /// controller the unit's radio saw connect last.
    @Test func batchProvisionsOverFourControllersWithARecordPerUnit() async throws {
        try await Self.expectBatch("batch-four-adapters", units: 6, lanes: 4)
    }

    /// Four units over two controllers: each lane's second unit comes from what its discovery heard after it
    /// paused for the first unit's connect, and each unit connects once, through the lane its record names.
    @Test func batchProvisionsTwoUnitsPerLaneOverTwoControllers() async throws {
        try await Self.expectBatch("batch-two-adapters", units: 4, lanes: 2)
    }

    private static func expectBatch(_ name: String, units: Int, lanes: Int) async throws {
        let batch = try await Self.scenario(name)
        Self.expect(batch, status: 0)
        let laneNames = (0..<lanes).map { "\"hci\($0)\"" }.joined(separator: ",")
        #expect(batch.standardOutput.contains(#""lanes":["# + laneNames + "]"), "\(batch)")
        let peripherals = batch["peripherals"]?.array ?? []
        #expect(peripherals.count == units && peripherals.allSatisfy { $0["sta_ssid"] == "HomeNet" }, "\(batch)")
        let records = (batch["report"]?.string ?? "").split(separator: "\n").compactMap {
            try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))
        }
        var adaptersUsed = Set<String>()
        for peripheral in peripherals {
            let address = peripheral["address"]?.string ?? "?"
            let attempts = records.filter { $0["address"]?.string == address }
            let unit = attempts.filter { $0["is_final"] == true }
            #expect(unit.count == 1 && unit.first?["code"] == "ok", "\(address): \(attempts)")
            let retried = attempts.filter { $0["is_final"] != true }
            #expect(retried.allSatisfy { $0["code"] == "ble.link-lost" }, "\(address): \(attempts)")
            withKnownIssue(
                "Under load the emulated link sometimes drops, and the batch provisions the unit again",
                isIntermittent: true
            ) {
                #expect(retried.isEmpty, "\(address) was retried: \(attempts)")
            }
            guard let adapter = unit.first?["adapter"]?.string, let index = Int(adapter.dropFirst(3)),
                Self.kernelControllers.indices.contains(index)
            else {
                Issue.record("\(address) has no adapter in its record: \(unit)")
                continue
            }
            adaptersUsed.insert(adapter)
            // Every link the peripheral saw is one of ztprov's `Connect` calls (a BluFi unit is never paired,
            // which would connect it again); more than one only where ztprov retried the connect.
            guard case .number(let connections) = peripheral["connections"] else {
                Issue.record("\(address) has no connection count: \(peripheral)")
                continue
            }
            let device = "/dev_" + address.replacingOccurrences(of: ":", with: "_")
            let connects = batch.standardError.split(separator: "\n").filter {
                $0.contains("org.bluez.Device1.Connect on ")
                    && ($0.contains(device + " (") || $0.contains(device + ":"))
            }.count
            #expect(
                connections >= 1 && connections <= Double(connects), "\(address): \(connects) connects, \(peripheral)")
            withKnownIssue(
                "Under load the emulated link sometimes drops while it is set up, and ztprov's connect retry brings it up again",
                isIntermittent: true
            ) {
                #expect(connections == 1, "\(address) connected more than once: \(peripheral)")
            }
            let connected = peripheral["events"]?.array?.last { $0["event"] == "connected" }?["detail"]?.string
            #expect(
                connected?.hasPrefix(Self.kernelControllers[index]) == true, "\(address) via \(adapter): \(peripheral)")
        }
        #expect(adaptersUsed.count >= lanes - 1, "lanes used: \(adaptersUsed)")
        #expect(!batch.standardError.contains("org.bluez.Device1.Pair on "), "a BluFi unit was paired: \(batch)")
    }

    // MARK: Improv

    @Test func scanFindsTheImprovPeripheralByName() async throws {
        let scan = try await Self.scenario("improv-scan")
        Self.expect(scan, status: 0)
        #expect(scan.everything.contains(scan["address"]?.string ?? "?"), "\(scan)")
    }

    /// Home Assistant's Improv client, through bleak and the real bluetoothd, provisions the lab's Improv
    /// peripheral (the harness's Improv model): the peripheral ztprov's Improv runs meet is sound.
    @Test func anotherImprovClientProvisionsTheImprovPeripheral() async throws {
        let improv = try await Self.scenario("improv-client")
        Self.expect(improv, status: 0)
        #expect(improv.standardError.contains("improv client check passed"), "\(improv)")
        #expect(improv["peripheral"]?["join_ssids"] == ["HomeNet"], "\(improv)")
        #expect(improv["peripheral"]?["state"] == 4, "provisioned: \(improv)")
        Self.expectLinkReleased(improv.record, improv.name)
    }

    /// `ble` with no --protocol reads Improv from the advertisement and provisions through bluetoothd:
    /// identify, hostname, then the Wi-Fi settings, ending with the device provisioned.
    @Test func bleProvisionsTheImprovPeripheralFoundByItsAdvertisement() async throws {
        let ble = try await Self.scenario("ble-improv-auto")
        Self.expect(ble, status: 0)
        #expect(ble.standardOutput.contains(#""protocol":"improv""#), "\(ble)")
        #expect(ble["peripheral"]?["join_ssids"] == ["HomeNet"], "\(ble)")
        #expect(ble["peripheral"]?["state"] == 4, "provisioned: \(ble)")
        #expect(ble["peripheral"]?["identify"] == 1, "\(ble)")
        #expect(ble["peripheral"]?["hostname"] == "lab-plug", "\(ble)")
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// The device's own reason (3, unable to connect) is the one reported; the scan that then explains the
    /// failure is a new command, which clears the device's current error as the specification says.
    @Test func bleImprovWrongWiFiPasswordIsTheDevicesReason() async throws {
        let ble = try await Self.scenario("ble-improv-wrong-password")
        Self.expect(ble, status: 7, code: "improv.wifi-unable-to-connect")
        #expect(ble["peripheral"]?["errors"] == [3], "unable to connect: \(ble)")
        #expect(ble["peripheral"]?["commands"]?.array?.suffix(2) == [1, 4], "settings, then a scan: \(ble)")
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// `ble` with no --protocol reads ESP protocomm from the advertised service and provisions the
    /// network_provisioning peripheral through bluetoothd: endpoints by their 0x2901 names, security 1.
    @Test func bleProvisionsTheProtocommPeripheralFoundByItsAdvertisement() async throws {
        let ble = try await Self.scenario("ble-protocomm-auto")
        Self.expect(ble, status: 0)
        #expect(ble.standardOutput.contains(#""protocol":"protocomm""#), "\(ble)")
        #expect(ble.standardOutput.contains(#""endpoints_named_by":"user-descriptions""#), "\(ble)")
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// A device that forces an encrypted link (network_provisioning's forced encryption, Just Works): bluetoothd
    /// pairs by itself on the refused access, ztprov provisions and leaves no bond behind.
    @Test func bleProtocommPairsWithADeviceThatForcesEncryptionAndRemovesTheBond() async throws {
        let ble = try await Self.scenario("ble-protocomm-pairing")
        Self.expect(ble, status: 0)
        #expect(ble.standardOutput.contains(#""protocol":"protocomm""#), "\(ble)")
        Self.expectNoBond(ble)
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// A device that asks for MITM protection: bluetoothd's own pairing on the refused access needs a default
    /// agent to confirm Just Works, fails without one and leaves the access unanswered; ztprov pairs through its
    /// own agent meanwhile (an explicit Pair confirms by itself), the access completes, and no bond is left.
    @Test func bleProtocommPairsADeviceThatAsksForMITMAfterBluetoothdsOwnPairingFailed() async throws {
        let ble = try await Self.scenario("ble-protocomm-pairing-mitm")
        Self.expect(ble, status: 0)
        let events = (ble["peripheral"]?["events"]?.array ?? []).compactMap { $0["event"]?.string }
        #expect(events.contains("pairing-failed"), "\(ble)")
        // On a quiet host the Bumble peripheral once answered the refused access right after bluetoothd's
        // own pairing failed (SMP 0x0c), before ztprov's Pair finished; ztprov then cancelled its Pair after
        // the grace and provisioned on an unpaired link. The lab peripheral's enforcement, not ztprov, is
        // in question there.
        withKnownIssue("the lab peripheral may answer after a failed pairing", isIntermittent: true) {
            #expect(events.contains("paired"), "\(ble)")
        }
        Self.expectNoBond(ble)
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// A device that refuses pairing: the access bluetoothd left hanging ends in `ble.pairing-failed` (6), not
    /// in a timeout, with the link released and no bond.
    @Test func bleProtocommNamesARefusedPairing() async throws {
        let ble = try await Self.scenario("ble-protocomm-pairing-refused")
        Self.expect(ble, status: 6, code: "ble.pairing-failed")
        Self.expectNoBond(ble)
        Self.expectLinkReleased(ble.record, ble.name)
    }

    // MARK: the Debian package

    /// The installed ztprov, run by a member of the package's group and of Debian's bluetooth group (not root),
    /// provisions over BLE: bluetoothd's D-Bus policy lets the bluetooth group in.
    @Test(RealStackLab.packageCondition) func theInstalledPackageProvisionsOverBLEAsAGroupMember() async throws {
        let ble = try await Self.scenario("package-ble-group-member")
        Self.expect(ble, status: 0)
        Self.expectInstalledRun(ble, user: "ztlab-member", groups: ["ztprov", "bluetooth"])
        #expect(ble["peripheral"]?["sta_ssid"] == "HomeNet", "\(ble)")
        Self.expectLinkReleased(ble.record, ble.name)
    }

    /// The package's polkit rule lets a member of its group have NetworkManager join the hotspot and restore
    /// the home network.
    @Test(RealStackLab.packageCondition) func theInstalledPackagesPolkitRuleLetsAGroupMemberJoinAndRestore()
        async throws
    {
        let softap = try await Self.scenario("package-softap-group-member")
        Self.expect(softap, status: 0)
        Self.expectInstalledRun(softap, user: "ztlab-member", groups: ["ztprov"])
        Self.expectHomeRestored(softap)
    }

    /// A user outside the group is refused by polkit: ztprov exits 3 with its own message (NetworkManager's
    /// words only as the detail) and the group named, and the home network stays.
    @Test(RealStackLab.packageCondition) func aUserOutsideThePackagesGroupIsRefusedWithTheGroupNamed() async throws {
        let softap = try await Self.scenario("package-softap-outsider")
        Self.expect(softap, status: 3, code: "host.permission-denied")
        Self.expectInstalledRun(softap, user: "ztlab-outsider", groups: [])
        #expect(softap["package"]?["users"]?["ztlab-outsider"]?.string?.contains("ztprov") == false, "\(softap)")
        let error = softap.standardError.split(separator: "\n").first { $0.hasPrefix("error[") } ?? ""
        #expect(
            error == "error[host.permission-denied]: Not allowed to control Wi-Fi through NetworkManager.", "\(softap)")
        #expect(softap.standardError.contains("ztprov group"), "\(softap)")
        Self.expectHomeRestored(softap)
    }

    /// The run was the installed binary's, under `user` (not root) with `groups` among its groups, with the
    /// package's polkit rule in place.
    static func expectInstalledRun(
        _ scenario: RealStackLab.Scenario, user: String, groups: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            scenario["program"]?.array?.last == "/usr/bin/ztprov"
                && scenario["program"]?.array?.contains(.string(user))
                    == true,
            "\(scenario)", sourceLocation: sourceLocation)
        #expect(scenario["package"]?["polkit_rule"] == .bool(true), "\(scenario)", sourceLocation: sourceLocation)
        let identity = scenario["package"]?["users"]?[user]?.string ?? ""
        #expect(
            !identity.isEmpty && !identity.hasPrefix("uid=0("), "\(user): \(identity)", sourceLocation: sourceLocation)
        for group in groups {
            #expect(identity.contains("(\(group))"), "\(user): \(identity)", sourceLocation: sourceLocation)
        }
    }

    static func expectNoBond(_ scenario: RealStackLab.Scenario, sourceLocation: SourceLocation = #_sourceLocation) {
        for controller in kernelControllers.indices.map({ "hci\($0)" }) {
            #expect(
                scenario["bluetoothd_paired_after"]?[controller] != .bool(true),
                "\(controller) kept the bond: \(scenario)", sourceLocation: sourceLocation)
        }
    }
}
