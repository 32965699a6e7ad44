import Foundation
import Glibc
import TestSupport
import Testing

/// The harness as the Swift tests drive it: it comes up with BlueZ, NetworkManager and the device host
/// answering, and `down` leaves the machine clean, also after a component died or a test threw.
@Suite(.serialized, .requiresHarnessHost, .requiresTools("busctl"))
struct HarnessLifecycleTests {
    static let scenario: JSONValue = [
        "bluez": ["devices": [["name": "BLUFI_E2E", "advertise_delay_ms": 50]]],
        "nm": [
            "access_points": [
                [
                    "ssid": "ZT_E2E", "bssid": "24:0A:C4:E2:E2:01", "strength": 70, "frequency": 2437,
                    "psk": "hotspot-pass",
                ]
            ]
        ],
        "device_host": ["protocomm": ["security": 0]],
    ]

    @Test func comesUpAnsweringThenDownLeavesNothing() async throws {
        try await withHarness(scenario: Self.scenario) { harness in
            let components = try liveComponents(of: harness)
            #expect(try await harness.status().up)
            try await expectEveryPieceAnswers(harness)

            let removed = try await harness.down()
            #expect(removed.contains("netns \(harness.topology.hostNetns)"))
            #expect(removed.contains("netns \(harness.topology.deviceNetns)"))
            #expect(try await HarnessLeftovers.find(of: harness.topology, components: components) == [])
            #expect(try await harness.down() == [], "a second down has nothing left to remove")
        }
    }

    @Test(arguments: ["dbus_daemon", "device_host"])
    func downAfterAComponentDiedLeavesNothing(victim: String) async throws {
        try await withHarness { harness in
            let components = try liveComponents(of: harness)
            let pid = try #require(harness.topology.pids[victim])
            kill(pid, SIGKILL)
            try await waitUntil("\(victim) is reported dead") {
                try await harness.status().processes[victim]?.running == false
            }
            try await harness.down()
            #expect(try await HarnessLeftovers.find(of: harness.topology, components: components) == [])
        }
    }

    @Test func withHarnessTakesItDownWhenTheBodyThrows() async throws {
        struct PlannedFailure: Error {}
        var seen: (HarnessSession, [String: ProcessIdentity])?
        await #expect(throws: PlannedFailure.self) {
            try await withHarness { harness in
                seen = (harness, try liveComponents(of: harness))
                throw PlannedFailure()
            }
        }
        let (harness, components) = try #require(seen)
        #expect(try await HarnessLeftovers.find(of: harness.topology, components: components) == [])
        #expect(!FileManager.default.fileExists(atPath: harness.runDirectory.path))
    }

    @Test func harnessTraitKeepsOneRunForTheScopeItWraps() async throws {
        let seen = SeenHarnesses()
        try await HarnessScope(scenario: [:]).provideScope(for: try #require(Test.current), testCase: nil) {
            let harness = try #require(HarnessSession.current)
            await seen.add(harness, try liveComponents(of: harness))
        }
        #expect(HarnessSession.current == nil)
        let (harness, components) = try #require(await seen.only)
        #expect(try await HarnessLeftovers.find(of: harness.topology, components: components) == [])
        #expect(!FileManager.default.fileExists(atPath: harness.runDirectory.path))
    }

    /// Every component `up` reported, identified by PID and start time; fails unless all of them run.
    private func liveComponents(of harness: HarnessSession) throws -> [String: ProcessIdentity] {
        #expect(
            Set(harness.topology.pids.keys) == ["dbus_daemon", "bus_recorder", "bluez_mock", "nm_mock", "device_host"]
        )
        return try harness.topology.pids.mapValues { pid in try #require(ProcessIdentity(pid: pid)) }
    }

    private func expectEveryPieceAnswers(_ harness: HarnessSession) async throws {
        try await expectBlueZAnswers(harness)
        try await expectNetworkManagerAnswers(harness)
        try await expectDeviceHostAnswers(harness)
    }

    private func expectBlueZAnswers(_ harness: HarnessSession) async throws {
        let objects = try await HarnessProbes.busctl(
            harness,
            ["call", "org.bluez", "/", "org.freedesktop.DBus.ObjectManager", "GetManagedObjects"]
        )
        let adapter = objects["data"]?[0]?["/org/bluez/hci0"]?["org.bluez.Adapter1"]
        #expect(adapter?["Address"]?["data"] == "00:AA:BB:CC:DD:00")
        let calls = try await harness.calls(mock: .bluez)
        #expect(calls["calls"]?.array?.contains { $0["method"] == "GetManagedObjects" } == true)
    }

    private func expectNetworkManagerAnswers(_ harness: HarnessSession) async throws {
        let manager = ["org.freedesktop.NetworkManager", "/org/freedesktop/NetworkManager"]
        let devices = try await HarnessProbes.busctl(
            harness,
            ["call"] + manager + ["org.freedesktop.NetworkManager", "GetDevices"]
        )
        let wifi = try #require(devices["data"]?[0]?[0]?.string)
        let interface = try await HarnessProbes.busctl(
            harness,
            ["get-property", manager[0], wifi, "org.freedesktop.NetworkManager.Device", "Interface"]
        )
        #expect(interface["data"]?.string == harness.topology.hostInterface, "the Wi-Fi device is the host's veth")
    }

    private func expectDeviceHostAnswers(_ harness: HarnessSession) async throws {
        let answers = try await HarnessProbes.deviceHostAnswers(harness)
        let hello = [UInt8](hex: try #require(answers["hello"]?.string))
        #expect(hello.starts(with: [0x21, 0x31]) && hello.count >= 32)
        #expect(answers["proto_ver"]?["prov"]?["sec_ver"] == 0, "the scenario's security level reached the device")
        let zhiting = try await harness.received(source: .zhiting)
        #expect(zhiting.array?.contains { $0["event"] == "hello" } == true)
    }

    private func waitUntil(_ what: Comment, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while try await !condition() {
            try #require(ContinuousClock.now < deadline, what)
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The harnesses a scope handed to its body, collected across the body's task.
private actor SeenHarnesses {
    private var harnesses: [(HarnessSession, [String: ProcessIdentity])] = []

    /// The one harness seen, or `nil` when there were none or several.
    var only: (HarnessSession, [String: ProcessIdentity])? {
        harnesses.count == 1 ? harnesses[0] : nil
    }

    func add(_ harness: HarnessSession, _ components: [String: ProcessIdentity]) {
        harnesses.append((harness, components))
    }
}
