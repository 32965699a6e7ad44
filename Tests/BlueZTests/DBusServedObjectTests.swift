import Foundation
import TestSupport
import Testing

@testable import DBus

/// An object a connection serves with canned answers (BlueZ's pairing agent), called by another client.
@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"))
struct DBusServedObjectTests {
    static let daemon = DBusObjectPath("/org/freedesktop/DBus")!
    static let agent = DBusObjectPath("/org/ztprov/agent")!

    static func names(_ connection: DBusConnection) async throws -> Set<String> {
        let reply = try await connection.call(
            DBusMethodCall(
                destination: "org.freedesktop.DBus", path: daemon, interface: "org.freedesktop.DBus",
                member: "ListNames"),
            timeout: .seconds(2))
        return Set(try #require(reply.first?.strings))
    }

    @Test func servedPathsGetTheirCannedAnswersAndOthersAnUnknownMethod() async throws {
        try await PrivateBus.with { bus in
            let caller = try await DBusConnection.open(.address(bus.address))
            let before = try await Self.names(caller)
            let server = try await DBusConnection.open(.address(bus.address))
            let serverName = try #require(try await Self.names(caller).subtracting(before).first { $0.hasPrefix(":") })
            await server.serve(Self.agent) { interface, member in
                member == "RequestAuthorization" ? .empty : .error(name: "org.bluez.Error.Rejected", message: member)
            }
            func call(_ member: String, path: DBusObjectPath = Self.agent) async throws -> [DBusValue] {
                try await caller.call(
                    DBusMethodCall(
                        destination: serverName, path: path, interface: "org.bluez.Agent1", member: member,
                        arguments: [.objectPath(Self.agent)]),
                    timeout: .seconds(2))
            }
            #expect(try await call("RequestAuthorization").isEmpty)
            let rejected = await #expect(throws: DBusError.self) { try await call("RequestPasskey") }
            #expect(rejected?.name == "org.bluez.Error.Rejected")
            let unknown = await #expect(throws: DBusError.self) {
                try await call("RequestAuthorization", path: DBusObjectPath("/elsewhere")!)
            }
            #expect(unknown?.name == "org.freedesktop.DBus.Error.UnknownMethod")
            await server.stopServing(Self.agent)
            let stopped = await #expect(throws: DBusError.self) { try await call("RequestAuthorization") }
            #expect(stopped?.name == "org.freedesktop.DBus.Error.UnknownMethod")
            await server.close()
            await caller.close()
        }
    }
}
