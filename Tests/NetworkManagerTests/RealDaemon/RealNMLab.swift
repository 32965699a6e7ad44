import Foundation
import TestSupport

/// The real NetworkManager daemon in network namespaces of its own, for one test.
///
/// Tests/Harness/real_nm.py builds and owns everything (namespaces, veth, dnsmasq, private bus,
/// the daemon) and answers commands on its standard input; closing that input, which also happens
/// when this process dies, makes it tear everything down.
final class RealNMLab {
    /// What the helper reports once NetworkManager manages its end of the veth.
    struct Topology: Decodable {
        let busAddress: String
        let interface: String
        let nmNetns: String
        let deviceNetns: String
    }

    /// The daemon's profiles and activations and the kernel's view of the interface, at one moment.
    struct State: Decodable {
        struct Profile: Decodable, Equatable {
            let id: String
            let type: String
            let volatile: Bool
        }

        struct Activation: Decodable, Equatable {
            let id: String
            /// `NMActiveConnectionState`: 2 is activated.
            let state: Int
        }

        let profiles: [Profile]
        let active: [Activation]
        /// IPv4 addresses on the interface, as `address/prefix`.
        let addresses: [String]
        /// Default routes in NetworkManager's namespace, as `ip -j route` prints them.
        let defaultRoutes: [JSONValue]

        /// The profiles ztprov created; the daemon's own loopback profile is not one.
        var ztprovProfiles: [Profile] { profiles.filter { $0.id.hasPrefix("ztprov-") } }

        /// The ids of activated connections other than loopback.
        var activatedIDs: [String] { active.filter { $0.state == 2 && $0.id != "lo" }.map(\.id) }
    }

    struct HelperFailure: Error, CustomStringConvertible {
        let description: String
    }

    let topology: Topology
    private let helper: RunningProcess

    static let helperPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Harness/real_nm.py").path

    /// Starts a lab (with or without a DHCP server on the device side), runs `body`, and always tears it down.
    static func with<Result>(dhcp: Bool, _ body: (RealNMLab) async throws -> Result) async throws -> Result {
        let lab = try await RealNMLab(dhcp: dhcp)
        return try await withCleanup {
            try await body(lab)
        } cleanup: {
            await lab.stop()
        }
    }

    private init(dhcp: Bool) async throws {
        var launch = ProcessLaunch("/usr/bin/python3", [Self.helperPath] + (dhcp ? [] : ["--no-dhcp"]))
        launch.holdsStandardInput = true
        // The lab lives for one test; the deadline only stops a helper that hangs.
        launch.deadline = .seconds(600)
        helper = try launch.start()
        do {
            topology = try Self.decode(Topology.self, from: try await Self.readLine(from: helper))
        } catch {
            await Self.finish(helper)
            throw error
        }
    }

    func state() async throws -> State {
        try Self.decode(State.self, from: try await send("state"))
    }

    /// Polls the state until `isSettled` holds or `timeout` passes, and returns the last state seen:
    /// NetworkManager finishes some work (deleting a volatile profile) just after it reports the change.
    func state(
        within timeout: Duration = .seconds(5),
        where isSettled: (State) -> Bool
    ) async throws -> State {
        let deadline = ContinuousClock.now + timeout
        var state = try await state()
        while !isSettled(state) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            state = try await self.state()
        }
        return state
    }

    /// Adds a persistent profile with a static address on the interface and waits until it is active.
    func activateStaticProfile(named name: String, address: String) async throws {
        _ = try Self.decode(JSONValue.self, from: try await send("activate-static \(name) \(address)"))
    }

    private func send(_ command: String) async throws -> Data {
        try helper.writeLine(command)
        return try await Self.readLine(from: helper)
    }

    private func stop() async {
        await Self.finish(helper)
    }

    /// Closes the helper's input, which makes it tear the lab down, and waits until it has.
    private static func finish(_ helper: RunningProcess) async {
        helper.closeStandardInput()
        _ = await helper.waitForExit()
    }

    private static func readLine(from helper: RunningProcess) async throws -> Data {
        guard let line = await helper.nextStandardOutputLine() else {
            throw HelperFailure(description: "real_nm.py exited without a reply: \(helper.standardErrorSoFar)")
        }
        return Data(line.utf8)
    }

    /// Decodes a reply, or throws the helper's `{"error": …}` with its message.
    private static func decode<Value: Decodable>(_ type: Value.Type, from reply: Data) throws -> Value {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        if case .string(let message)? = try? decoder.decode([String: JSONValue].self, from: reply)["error"] {
            throw HelperFailure(description: "real_nm.py: \(message)")
        }
        return try decoder.decode(type, from: reply)
    }
}
