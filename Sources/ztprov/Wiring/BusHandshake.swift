import BlueZ
import DBus
import Provisioning

/// How long connecting to the system bus may take: what is left of the command's time, and never more
/// than 10 s (a working bus answers in milliseconds), so a bus that takes the connection and never
/// answers cannot hang a command.
enum BusHandshake {
    static let longest: Duration = .seconds(10)

    /// The bus bluetoothd is on: the system bus, or in a test one it started.
    @TaskLocal static var systemBus: DBusConnection.Bus = .system

    static func timeout(by deadline: ContinuousClock.Instant) -> Duration {
        min(max(deadline - .now, .zero), longest)
    }

    /// BlueZ's default timeouts with the handshake bounded by `deadline`.
    static func blueZTimeouts(by deadline: ContinuousClock.Instant) -> BlueZTimeouts {
        var timeouts = BlueZTimeouts()
        timeouts.busHandshake = timeout(by: deadline)
        return timeouts
    }
}

extension ProvisioningError {
    /// The bus took the connection and never finished its handshake.
    static func busNotAnswering(_ error: DBusError) -> ProvisioningError {
        ProvisioningError(
            .busNotAnswering, "The D-Bus system bus accepted the connection but did not answer it in time.",
            hint: ErrorCode.busNotAnswering.hint, detail: "\(error)")
    }
}
