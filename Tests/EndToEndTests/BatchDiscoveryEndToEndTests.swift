import Foundation
import Records
import TestSupport
import Testing

/// `ztprov batch` keeps one discovery per adapter for the whole batch, picks units from what each adapter
/// heard (the loudest adapter wins), pauses an adapter's discovery while that adapter connects, and stops
/// every discovery it started, whatever the units did.
@Suite(.serialized, .requiresHarnessHost)
struct BatchDiscoveryEndToEndTests {
    /// Successful StartDiscovery and StopDiscovery calls per adapter path, from the bus record.
    static func discoveryCalls(_ h: HarnessSession) async throws -> (starts: [String: Int], stops: [String: Int]) {
        let calls = try await h.calls(mock: .bluez)["calls"]?.array ?? []
        func count(_ method: String) -> [String: Int] {
            var counts: [String: Int] = [:]
            for call in calls where call["method"]?.string == method && call["error"] == nil {
                counts[call["path"]?.string ?? "", default: 0] += 1
            }
            return counts
        }
        return (count("StartDiscovery"), count("StopDiscovery"))
    }

    /// Successful SetDiscoveryFilter calls per adapter path, from the bus record.
    static func filterCalls(_ h: HarnessSession) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for call in try await h.calls(mock: .bluez)["calls"]?.array ?? []
        where call["method"] == "SetDiscoveryFilter" && call["error"] == nil {
            counts[call["path"]?.string ?? "", default: 0] += 1
        }
        return counts
    }

    /// Successful Connect calls per adapter path, from the bus record.
    static func connectCalls(_ h: HarnessSession) async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for call in try await h.calls(mock: .bluez)["calls"]?.array ?? []
        where call["method"] == "Connect" && call["error"] == nil {
            let adapter = (call["path"]?.string ?? "").split(separator: "/").prefix(3).joined(separator: "/")
            counts["/" + adapter, default: 0] += 1
        }
        return counts
    }

    /// Devices whose link was dropped before their adapter's discovery ran again: a lane resumes its discovery
    /// once a unit's link is up (beside the session), so it hears its next units while this one is provisioned.
    static func provisionedWithDiscoveryPaused(_ h: HarnessSession) async throws -> [String] {
        var connected: [String: String] = [:]
        var paused: [String] = []
        for call in try await h.calls(mock: .bluez)["calls"]?.array ?? [] where call["error"] == nil {
            let path = call["path"]?.string ?? ""
            let adapter = "/" + path.split(separator: "/").prefix(3).joined(separator: "/")
            switch call["method"]?.string {
            case "Connect": connected[adapter] = path
            case "StartDiscovery": connected[adapter] = nil
            case "Disconnect": if let device = connected.removeValue(forKey: adapter) { paused.append(device) }
            default: break
            }
        }
        return paused
    }

    /// The devices' "connect-while-discovering" events: Connects that reached an adapter while it discovered.
    static func connectsWhileDiscovering(_ h: HarnessSession) async throws -> [String] {
        try await h.received(source: .blufi).array?.flatMap { device in
            (device["ble"]?["events"]?.array ?? []).filter { $0["event"] == "connect-while-discovering" }.map {
                "\(device["address"]?.string ?? "?") via \($0["detail"]?.string ?? "?")"
            }
        } ?? []
    }

    /// The match rules each bus connection added for bluetoothd's signals, by its unique name, and the
    /// adapters each connection discovered on, from the bus record.
    static func laneSubscriptions(_ h: HarnessSession) throws -> (
        rules: [String: [String]], discovered: [String: Set<String>]
    ) {
        let record = try String(contentsOf: h.runDirectory.appending(path: "bus.jsonl"), encoding: .utf8)
        var rules: [String: [String]] = [:]
        var discovered: [String: Set<String>] = [:]
        for line in record.split(separator: "\n") {
            let entry = try JSONDecoder().decode(JSONValue.self, from: Data(line.utf8))
            guard entry["type"] == "call", let sender = entry["sender"]?.string else { continue }
            if entry["member"] == "AddMatch", let rule = entry["args"]?[0]?.string, rule.contains("sender='org.bluez'")
            {
                rules[sender, default: []].append(rule)
            } else if entry["member"] == "StartDiscovery", let path = entry["path"]?.string {
                discovered[sender, default: []].insert(path)
            }
        }
        return (rules, discovered)
    }

    static func scenario(units: Int, rssi: (Int) -> JSONValue) -> JSONValue {
        let adapters = BatchEndToEndTests.adapters
        let devices: [JSONValue] = (1...units).map { index in
            [
                "adapters": .array(adapters.map(JSONValue.string)),
                "address": .string(BatchEndToEndTests.address(index)),
                "name": .string(BatchEndToEndTests.name(index)), "advertise_delay_ms": 20, "rssi": rssi(index),
                "blufi": ["target_ssid": "Factory", "join_delay_ms": 50],
            ]
        }
        let adapterList: [JSONValue] = adapters.enumerated().map { index, name in
            ["name": .string(name), "address": .string("00:AA:BB:CC:DD:0\(index)"), "powered": true]
        }
        return ["bluez": ["adapters": .array(adapterList), "devices": .array(devices)]]
    }

    /// The mock makes a Connect through a discovering adapter take 5 s, as the real kernel and bluetoothd do
    /// (`connect_while_discovering_ms`): none may reach one, and each lane restarts its discovery once per
    /// connect, so the lane still hears its next units.
    @Test(arguments: [2, 4])
    func oneDiscoveryPerAdapterServesTheWholeBatchPausingForEachConnect(adapters: Int) async throws {
        let directory = try BatchEndToEndTests.workspace(units: 12)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lanes = Array(BatchEndToEndTests.adapters.prefix(adapters))
        try await withHarness(scenario: BatchEndToEndTests.scenario()) { h in
            let outcome = try await BatchEndToEndTests.batch(
                h, directory, ["--adapters", lanes.joined(separator: ",")]
            ).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let records = try await BatchEndToEndTests.records(directory)
            #expect(records.count == 12 && records.allSatisfy(\.succeeded), "\(records.map(\.code))")
            #expect(Set(records.map(\.deviceKey)).count == 12)
            #expect(Set(records.map(\.adapter)).isSubset(of: Set(lanes)))
            #expect(records.allSatisfy { $0.steps.first?.name == "scan" })
            #expect(!outcome.standardError.contains("\u{1B}["), "no live view without a terminal")
            #expect(try await Self.connectsWhileDiscovering(h) == [])
            #expect(try await Self.provisionedWithDiscoveryPaused(h) == [])
            let calls = try await Self.discoveryCalls(h)
            let connects = try await Self.connectCalls(h)
            #expect(Set(connects.keys).isSubset(of: Set(lanes.map { "/org/bluez/\($0)" })), "\(connects)")
            for lane in lanes.map({ "/org/bluez/\($0)" }) {
                #expect(calls.starts[lane] == 1 + connects[lane, default: 0], "\(lane): \(calls.starts), \(connects)")
            }
            #expect(calls.stops == calls.starts, "StopDiscovery per adapter: \(calls.stops) for \(calls.starts)")
            // bluetoothd keeps a stopped discovery's filter for the next start: each lane sets its filter as
            // discovery begins and clears it as it ends, never around a connect.
            let filters = try await Self.filterCalls(h)
            #expect(filters == Dictionary(uniqueKeysWithValues: lanes.map { ("/org/bluez/\($0)", 2) }), "\(filters)")
            // Each lane's connection asks the bus for its own adapter's signals only, so the discovery
            // reports of the other lanes never reach it.
            let (rules, discovered) = try Self.laneSubscriptions(h)
            #expect(Set(discovered.values) == Set(lanes.map { ["/org/bluez/\($0)"] }), "\(discovered)")
            for (connection, adapters) in discovered {
                let adapter = try #require(adapters.first)
                let own = rules[connection] ?? []
                #expect(own.count == 3, "\(connection): \(own)")
                #expect(
                    own.allSatisfy { $0.hasSuffix("'\(adapter)'") || $0.hasSuffix("'\(adapter)/'") },
                    "\(connection) on \(adapter): \(own)")
            }
            try await BatchEndToEndTests.expectNoLinkLeftUp(h)
        }
    }

    /// bluetoothd answers InProgress when the kernel rejected a stop between scan windows, yet ends the
    /// discovery (seen with four adapters in the real-stack lab): each lane takes it as paused, connects, and
    /// resumes, so no unit fails or is retried for it.
    @Test func aStopDiscoveryTheKernelRejectedStillPausesTheLane() async throws {
        let directory = try BatchEndToEndTests.workspace(units: 4)
        defer { try? FileManager.default.removeItem(at: directory) }
        let scenario = BatchEndToEndTests.scenario(units: 4, adapter: ["stop_discovery_rejected_first_n": 2])
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BatchEndToEndTests.batch(h, directory, ["--adapters", "hci0,hci1"]).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let records = try await BatchEndToEndTests.records(directory)
            #expect(records.count == 4 && records.allSatisfy { $0.succeeded && $0.attempt == 1 }, "\(records)")
            let calls = try await h.calls(mock: .bluez)["calls"]?.array ?? []
            let rejected = calls.filter { $0["method"] == "StopDiscovery" && $0["error"] != nil }
            #expect(rejected.count >= 2, "the rejection never happened: \(rejected)")
            #expect(try await Self.connectsWhileDiscovering(h) == [])
            try await BatchEndToEndTests.expectNoLinkLeftUp(h)
        }
    }

    @Test func eachUnitGoesToTheAdapterThatHearsItLoudest() async throws {
        let directory = try BatchEndToEndTests.workspace(units: 4)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Unit i sits at the fixture of adapter hci((i + 1) % 4): loud there, faint elsewhere.
        func loudest(_ index: Int) -> String { "hci\((index + 1) % 4)" }
        let scenario = Self.scenario(units: 4) { index in
            .object(
                Dictionary(
                    uniqueKeysWithValues: BatchEndToEndTests.adapters.map { adapter in
                        (adapter, JSONValue.number(Double(adapter == loudest(index) ? -35 : -75 - index)))
                    }))
        }
        try await withHarness(scenario: scenario) { h in
            let outcome = try await BatchEndToEndTests.batch(h, directory).run()
            #expect(outcome.exitStatus == 0, "\(outcome)")
            let records = try await BatchEndToEndTests.records(directory)
            for index in 1...4 {
                let record = records.first { $0.deviceKey == BatchEndToEndTests.address(index) }
                #expect(record?.adapter == loudest(index), "unit \(index) went to \(record?.adapter ?? "none")")
            }
            let calls = try await Self.discoveryCalls(h)
            #expect(calls.starts.count == 4 && calls.stops == calls.starts, "\(calls.starts)")
        }
    }

    @Test func aUnitNobodyHearsEndsNotFoundAndDiscoveryStillStops() async throws {
        let directory = try BatchEndToEndTests.workspace(units: 3)
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withHarness(scenario: Self.scenario(units: 2) { _ in -50 }) { h in
            let outcome = try await BatchEndToEndTests.batch(
                h, directory, ["--adapters", "hci0,hci1", "--scan-timeout", "1.5"]
            ).run()
            #expect(outcome.exitStatus == 10, "\(outcome)")
            let records = try await BatchEndToEndTests.records(directory)
            let missing = records.filter { $0.deviceKey == BatchEndToEndTests.address(3) }
            #expect(missing.map(\.code) == ["ble.device-not-found"], "\(records.map(\.code))")
            #expect(records.filter(\.succeeded).count == 2)
            let calls = try await Self.discoveryCalls(h)
            #expect(Set(calls.starts.keys) == ["/org/bluez/hci0", "/org/bluez/hci1"], "\(calls.starts)")
            #expect(calls.stops == calls.starts, "\(calls.stops)")
        }
    }
}
