import BlueZ
import DBus
import FoundationEssentials
import HCI
import StringEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Looks at the host for `ztprov doctor`: read-only queries of the kernel, sysfs, udev and the system bus.
struct DoctorProbes {
    /// Where the system bus is (`DBUS_SYSTEM_BUS_ADDRESS` is honoured by `.system`).
    var bus: DBusConnection.Bus = .system
    var rfkillDirectory = "/sys/class/rfkill"
    var slots = UdevSlotLookup()
    var callTimeout: Duration = .seconds(5)
    /// Connecting to the bus, each time (``BusHandshake``).
    var handshakeTimeout = BusHandshake.longest

    static let bluezName = "org.bluez"
    static let networkManagerName = "org.freedesktop.NetworkManager"

    func findings() async -> DoctorFindings {
        let connection: Result<DBusConnection, any Error>
        do {
            connection = .success(try await DBusConnection.open(bus, handshakeTimeout: handshakeTimeout))
        } catch {
            connection = .failure(error)
        }
        defer { if case .success(let open) = connection { Task { await open.close() } } }
        return DoctorFindings(
            kernel: kernel(),
            bluetoothd: await bluetoothd(connection),
            radioSwitches: radioSwitches(),
            networkManager: await networkManager(connection),
            isRoot: geteuid() == 0
        )
    }

    func kernel() -> DoctorFindings.Kernel {
        do {
            return .controllers(
                try HCIControllers.list().map { controller in
                    DoctorFindings.Controller(
                        name: controller.name, address: controller.address, bus: controller.bus.rawValue,
                        isUp: controller.isUp, slot: slots.slot(ofController: controller.name))
                })
        } catch .kernelHasNoBluetooth {
            return .noBluetooth
        } catch {
            return .unreadable("\(error)")
        }
    }

    func radioSwitches() -> [DoctorFindings.RadioSwitch] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: rfkillDirectory)) ?? []
        return entries.sorted().compactMap { entry in
            let read = { (file: String) in
                (try? String(contentsOfFile: "\(rfkillDirectory)/\(entry)/\(file)", encoding: .utf8))?
                    .trimmingWhitespace()
            }
            guard let type = read("type"), type == "bluetooth" || type == "wlan" else { return nil }
            return DoctorFindings.RadioSwitch(
                type: type, name: read("name") ?? entry, softBlocked: read("soft") == "1",
                hardBlocked: read("hard") == "1")
        }
    }

    func bluetoothd(_ connection: Result<DBusConnection, any Error>) async
        -> DoctorFindings.Service<[DoctorFindings.Adapter]>
    {
        await service(Self.bluezName, on: connection) {
            var timeouts = BlueZTimeouts()
            timeouts.busHandshake = handshakeTimeout
            return try await BlueZClient.withClient(bus: bus, timeouts: timeouts) { client in
                await client.tree.adapters.map {
                    DoctorFindings.Adapter(name: $0.name, address: $0.address, isPowered: $0.isPowered)
                }
            }
        }
    }

    func networkManager(_ connection: Result<DBusConnection, any Error>) async
        -> DoctorFindings.Service<[DoctorFindings.WiFiDevice]>
    {
        await service(Self.networkManagerName, on: connection) { try await wifiDevices(on: connection.get()) }
    }

    /// NetworkManager's devices of type Wi-Fi (`DeviceType` 2), with interface and state.
    private func wifiDevices(on connection: DBusConnection) async throws -> [DoctorFindings.WiFiDevice] {
        let root = DBusObjectPath("/org/freedesktop/NetworkManager")!
        let reply = try await connection.call(
            DBusMethodCall(
                destination: Self.networkManagerName, path: root, interface: Self.networkManagerName,
                member: "GetDevices"),
            timeout: callTimeout)
        var devices: [DoctorFindings.WiFiDevice] = []
        for path in reply.first?.elements?.compactMap(\.objectPath) ?? [] {
            guard try await deviceProperty(path, "DeviceType", on: connection)?.integer == 2 else { continue }
            let interface =
                try await deviceProperty(path, "Interface", on: connection)?.string ?? path.lastComponent
            let state = try await deviceProperty(path, "State", on: connection)?.integer ?? 0
            devices.append(DoctorFindings.WiFiDevice(interface: interface, state: state))
        }
        return devices
    }

    private func deviceProperty(
        _ path: DBusObjectPath, _ name: String, on connection: DBusConnection
    ) async throws -> DBusValue? {
        let reply = try await connection.call(
            DBusMethodCall(
                destination: Self.networkManagerName, path: path, interface: "org.freedesktop.DBus.Properties",
                member: "Get", arguments: [.string("org.freedesktop.NetworkManager.Device"), .string(name)]),
            timeout: callTimeout)
        return reply.first?.unwrapped
    }

    /// `.absent` when nobody owns `name`, else what `query` found (or why it failed).
    private func service<Value: Sendable & Equatable>(
        _ name: String, on connection: Result<DBusConnection, any Error>, _ query: () async throws -> Value
    ) async -> DoctorFindings.Service<Value> {
        let open: DBusConnection
        do {
            open = try connection.get()
        } catch {
            return .unreachable("\(error)")
        }
        do {
            let reply = try await open.call(
                DBusMethodCall(
                    destination: "org.freedesktop.DBus", path: DBusObjectPath("/org/freedesktop/DBus")!,
                    interface: "org.freedesktop.DBus", member: "NameHasOwner", arguments: [.string(name)]),
                timeout: callTimeout)
            guard reply.first?.bool == true else { return .absent }
            return .running(try await query())
        } catch {
            return .unreachable("\(error)")
        }
    }
}
