import Testing

@testable import BlueZ

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"))
struct DBusConnectionTests {
    static let daemon = DBusObjectPath("/org/freedesktop/DBus")!

    @Test func callsTheBusDaemonAndDecodesTheReply() async throws {
        try await PrivateBus.with { bus in
            let connection = try await DBusConnection.open(.address(bus.address))
            let reply = try await connection.call(
                DBusMethodCall(
                    destination: "org.freedesktop.DBus", path: Self.daemon, interface: "org.freedesktop.DBus",
                    member: "ListNames"),
                timeout: .seconds(2))
            let names = try #require(reply.first?.strings)
            #expect(names.contains("org.freedesktop.DBus"))
            await connection.close()
        }
    }

    @Test func errorRepliesKeepTheirNameAndMessage() async throws {
        try await PrivateBus.with { bus in
            let connection = try await DBusConnection.open(.address(bus.address))
            let call = DBusMethodCall(
                destination: "org.bluez", path: .root, interface: "org.freedesktop.DBus.ObjectManager",
                member: "GetManagedObjects")
            let error = await #expect(throws: DBusError.self) {
                try await connection.call(call, timeout: .seconds(2))
            }
            #expect(error?.name == DBusError.Name.serviceUnknown)
            #expect(error?.message.contains("org.bluez") == true)
            await connection.close()
        }
    }

    @Test func failsCleanlyWithoutABus() async throws {
        let error = await #expect(throws: DBusError.self) {
            try await DBusConnection.open(.address("unix:path=/nonexistent/ztprov-test-socket"))
        }
        #expect(error?.name.hasPrefix("org.freedesktop.DBus.Error.") == true)
    }
}
