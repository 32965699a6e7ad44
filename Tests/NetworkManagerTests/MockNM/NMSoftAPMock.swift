import Foundation
import TestSupport

/// The harness's NetworkManager mock (`nm_softap_template.py`, python-dbusmock) on a private bus.
struct NMSoftAPMock {
    let bus: PrivateSystemBus

    /// Runs `body` against a fresh bus and mock, stopping both however `body` ends.
    static func with<Result>(
        _ parameters: [String: any Sendable] = [:],
        _ body: (NMSoftAPMock) async throws -> Result
    ) async throws -> Result {
        let json = String(decoding: try JSONSerialization.data(withJSONObject: parameters), as: UTF8.self)
        return try await PrivateSystemBus.with { bus in
            let launch = bus.launch(
                MockNMTools.python, ["-m", "dbusmock", "--template", MockNMTools.nmTemplate, "-p", json],
                log: "nm-mock.log")
            return try await launch.withRunning { mock in
                try await mock.waitUntilReady("the NetworkManager mock answers", within: .seconds(30)) {
                    await Self.stateJSON(bus.address) != nil
                }
                return try await body(NMSoftAPMock(bus: bus))
            }
        }
    }

    /// Makes a NetworkManager method fail with `errorName`, as NetworkManager does when polkit says no.
    func failMethod(
        path: String, interface: String, method: String, inSignature: String, errorName: String
    ) async throws {
        let code = "raise dbus.exceptions.DBusException('refused by the test', name='\(errorName)')"
        let reply = await MockNMTools.output(
            MockNMTools.dbusSend,
            [
                "--bus=\(bus.address)", "--print-reply", "--dest=org.freedesktop.NetworkManager", path,
                "org.freedesktop.DBus.Mock.AddMethod", "string:\(interface)", "string:\(method)",
                "string:\(inSignature)", "string:", "string:\(code)",
            ])
        guard reply != nil else { throw MockNMTools.Unanswered(what: "AddMethod \(method)") }
    }

    /// The mock's view of NetworkManager: profiles, active connections and the calls it received.
    func state() async throws -> NMMockState {
        guard let json = await Self.stateJSON(bus.address) else { throw MockNMTools.Unanswered(what: "GetNMState") }
        return try JSONDecoder().decode(NMMockState.self, from: Data(json.utf8))
    }

    private static func stateJSON(_ address: String) async -> String? {
        await MockNMTools.output(
            MockNMTools.dbusSend,
            [
                "--bus=\(address)", "--print-reply=literal", "--dest=org.freedesktop.NetworkManager",
                "/org/freedesktop", "org.freedesktop.DBus.Mock.GetNMState",
            ]
        )?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// The parts of the mock's `GetNMState` the tests check.
struct NMMockState: Decodable {
    struct Profile: Decodable {
        let id: String?
        /// `disk`, `memory` or `volatile`.
        let persist: String
    }

    struct ActiveConnection: Decodable {
        let id: String
        let state: Int
        /// The D-Bus client the activation is bound to (`bind-activation=dbus-client`).
        let boundTo: String?

        enum CodingKeys: String, CodingKey {
            case id, state
            case boundTo = "bound_to"
        }
    }

    struct Call: Decodable {
        let method: String
        let args: JSONValue
    }

    struct Event: Decodable {
        let event: String
    }

    let profiles: [Profile]
    let activeConnections: [ActiveConnection]
    let calls: [Call]
    let events: [Event]

    enum CodingKeys: String, CodingKey {
        case profiles, calls, events
        case activeConnections = "active_connections"
    }

    /// Profiles ztprov added and did not remove.
    var temporaryProfiles: [Profile] { profiles.filter { $0.id?.hasPrefix("ztprov-") == true } }

    /// Whether the given profile is active (NMActiveConnectionState ACTIVATED) and nothing else is.
    func onlyActive(_ id: String) -> Bool {
        activeConnections.map(\.id) == [id] && activeConnections.first?.state == 2
    }

    var methods: [String] { calls.map(\.method) }

    /// The arguments of the first call of `method`.
    func arguments(of method: String) -> JSONValue? {
        calls.first { $0.method == method }?.args
    }

    /// Whether the mock has started an activation (and not yet finished it).
    var activationStarted: Bool { events.contains { $0.event == "activation_started" } }
}
