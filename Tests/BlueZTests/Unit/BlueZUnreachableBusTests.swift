import DBus
import TestSupport
import Testing

@testable import BlueZ

/// Whatever the bus answers when bluetoothd cannot be had, the adapter calls it bluetoothd absent or
/// the bus lost, never a refusal by bluetoothd.
@Suite struct BlueZUnreachableBusTests {
    @Test func everyActivationAndSystemdUnitFailureMeansNoBluetoothd() {
        var random = SplitMix64(seed: 0xB1E2)
        let known = [
            "org.freedesktop.DBus.Error.Spawn.ChildExited", "org.freedesktop.DBus.Error.Spawn.ExecFailed",
            "org.freedesktop.DBus.Error.Spawn.ServiceNotFound", "org.freedesktop.DBus.Error.Spawn.ChildSignaled",
            "org.freedesktop.DBus.Error.Spawn.FailedToSetup", "org.freedesktop.DBus.Error.Spawn.NoMemory",
            "org.freedesktop.systemd1.NoSuchUnit", "org.freedesktop.systemd1.UnitMasked",
            "org.freedesktop.systemd1.LoadFailed", "org.freedesktop.DBus.Error.ServiceUnknown",
            "org.freedesktop.DBus.Error.NameHasNoOwner",
        ]
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
        let generated = (0..<200).map { _ in
            let suffix = String((0..<(1 + random.below(16))).map { _ in letters[random.below(letters.count)] })
            return ["org.freedesktop.DBus.Error.Spawn.", "org.freedesktop.systemd1."][random.below(2)] + suffix
        }
        for name in known + generated {
            guard case .bluetoothdNotRunning = BlueZError(DBusError(name: name, message: "m")) else {
                Issue.record("\(name) is not bluetoothd absent")
                continue
            }
        }
    }

    @Test func noSystemBusIsTheBusLost() {
        for name in BlueZError.noSystemBusNames {
            guard case .busLost = BlueZError(DBusError(name: name, message: "m")) else {
                Issue.record("\(name) is not the bus lost")
                continue
            }
        }
        guard case .other = BlueZError(DBusError(name: "org.freedesktop.DBus.Error.Spawnish", message: "m")) else {
            Issue.record("a name that only starts like Spawn matched")
            return
        }
    }
}
