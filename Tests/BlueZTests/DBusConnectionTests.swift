import Foundation
import TestSupport
import Testing

@testable import BlueZ
@testable import DBus

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
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

@Suite(.enabled(if: PrivateBus.isAvailable, "\(PrivateBus.unavailableReason ?? "")"), .timeLimit(.minutes(1)))
struct DBusConnectionMockBusTests {
    static func stall(_ milliseconds: Int) -> DBusMethodCall {
        DBusMethodCall(
            destination: "org.bluez", path: .root, interface: "org.freedesktop.DBus.ObjectManager", member: "Stall",
            arguments: [.int32(Int32(milliseconds))])
    }

    /// Adds a method to the mock that blocks its main loop, so a reply arrives late (or after the deadline).
    static func addStall(_ connection: DBusConnection) async throws {
        _ = try await connection.call(
            DBusMethodCall(
                destination: "org.bluez", path: .root, interface: "org.freedesktop.DBus.Mock", member: "AddMethod",
                arguments: [
                    .string(""), .string("Stall"), .string("i"), .string(""), .string("time.sleep(args[0] / 1000)"),
                ]),
            timeout: .seconds(2))
    }

    @Test func timesOutAtTheDeadlineWithTheDBusTimeoutName() async throws {
        try await BlueZMock.with { mock in
            let connection = try await DBusConnection.open(mock.busAddress)
            try await Self.addStall(connection)
            // The stall outlasts the suite's time limit: only the deadline can end this call in time,
            // and the timeout's name says it did.
            let error = await #expect(throws: DBusError.self) {
                try await connection.call(Self.stall(120_000), timeout: .milliseconds(100))
            }
            #expect(error?.name == DBusError.Name.timeout)
            await connection.close()
        }
    }

    @Test func cancellationAbandonsThePendingCall() async throws {
        try await BlueZMock.with { mock in
            let connection = try await DBusConnection.open(mock.busAddress)
            try await Self.addStall(connection)
            // The stall and the call's deadline outlast the suite's time limit: only the cancellation
            // can end this wait in time, and CancellationError says it did.
            let call = Task { try await connection.call(Self.stall(120_000), timeout: .seconds(120)) }
            try await Task.sleep(for: .milliseconds(50))
            call.cancel()
            await #expect(throws: CancellationError.self) { try await call.value }
            await connection.close()
        }
    }

    @Test func deliversMatchingSignalsUntilTheStreamEnds() async throws {
        try await PrivateBus.with { bus in
            let connection = try await DBusConnection.open(.address(bus.address))
            let rule = DBusMatchRule(
                sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged")
            let signals = try await connection.signals(matching: rule)
            let other = try await DBusConnection.open(.address(bus.address))
            var iterator = signals.makeAsyncIterator()
            let signal = try await iterator.next()
            #expect(signal?.member == "NameOwnerChanged")
            #expect(signal?.arguments.first?.string?.hasPrefix(":") == true)
            await connection.close()
            await #expect(throws: DBusError.self) { _ = try await iterator.next() }
            await other.close()
        }
    }

    @Test func theSystemBusHonoursDBUSSystemBusAddress() async throws {
        try await PrivateBus.with { bus in
            // Only this test opens `.system`, so pointing the variable at the private bus disturbs no other test.
            setenv("DBUS_SYSTEM_BUS_ADDRESS", bus.address, 1)
            defer { unsetenv("DBUS_SYSTEM_BUS_ADDRESS") }
            let connection = try await DBusConnection.open(.system)
            let names = try await connection.call(
                DBusMethodCall(
                    destination: "org.freedesktop.DBus", path: DBusObjectPath("/org/freedesktop/DBus")!,
                    interface: "org.freedesktop.DBus", member: "ListNames"),
                timeout: .seconds(2))
            #expect(names.first?.strings?.contains("org.freedesktop.DBus") == true)
            await connection.close()
        }
    }
}
