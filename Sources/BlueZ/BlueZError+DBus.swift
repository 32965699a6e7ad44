public import DBus

/// The one table from D-Bus error names (and `Failed` reasons) to `BlueZError` cases.
extension BlueZError {
    private static let byName: [String: @Sendable (DBusError) -> BlueZError] = [
        "org.bluez.Error.NotReady": BlueZError.notReady,
        "org.bluez.Error.NotPermitted": BlueZError.notPermitted,
        "org.bluez.Error.NotAuthorized": BlueZError.notAuthorized,
        "org.bluez.Error.NotSupported": BlueZError.notSupported,
        "org.bluez.Error.NotConnected": BlueZError.notConnected,
        "org.bluez.Error.AlreadyConnected": BlueZError.alreadyConnected,
        "org.bluez.Error.InProgress": BlueZError.inProgress,
        "org.bluez.Error.DoesNotExist": BlueZError.doesNotExist,
        "org.bluez.Error.InvalidArguments": BlueZError.invalidArguments,
        "org.bluez.Error.InvalidValueLength": BlueZError.invalidArguments,
        "org.bluez.Error.Blocked": { BlueZError.adapterBlocked($0.message) },
        "org.bluez.Error.AuthenticationFailed": BlueZError.pairingFailed,
        "org.bluez.Error.AuthenticationRejected": BlueZError.pairingFailed,
        "org.bluez.Error.AuthenticationCanceled": BlueZError.pairingFailed,
        "org.bluez.Error.AuthenticationTimeout": BlueZError.pairingFailed,
        DBusError.Name.unknownObject: BlueZError.doesNotExist,
        DBusError.Name.invalidArgs: BlueZError.invalidArguments,
        DBusError.Name.serviceUnknown: BlueZError.bluetoothdNotRunning,
        DBusError.Name.nameHasNoOwner: BlueZError.bluetoothdNotRunning,
        DBusError.Name.accessDenied: BlueZError.accessDenied,
        DBusError.Name.disconnected: BlueZError.busLost,
        DBusError.Name.timeout: { BlueZError.timedOut($0.message) },
        DBusError.Name.noReply: { error in
            BlueZQuirks.isRecipientGone(error.message) ? .bluetoothdNotRunning(error) : .timedOut(error.message)
        },
    ]

    /// Classifies a D-Bus error by its name, and `org.bluez.Error.Failed` by its reason text.
    public init(_ error: DBusError) {
        if error.name == "org.bluez.Error.Failed" {
            self =
                BlueZQuirks.isLocalConnectionAbort(error.message)
                ? .connectionAborted(error) : .failed(reason: error.message, error)
        } else if let mapped = BlueZError.byName[error.name] {
            self = mapped(error)
        } else if Self.noSystemBusNames.contains(error.name) {
            self = .busLost(error)
        } else if Self.noBluetoothdPrefixes.contains(where: error.name.hasPrefix) {
            self = .bluetoothdNotRunning(error)
        } else {
            self = .other(error)
        }
    }

    /// What libdbus says when there is no system bus to connect to (no socket, nothing listening, a
    /// malformed `DBUS_SYSTEM_BUS_ADDRESS`).
    public static let noSystemBusNames: Set<String> = [
        "org.freedesktop.DBus.Error.FileNotFound", "org.freedesktop.DBus.Error.NoServer",
        "org.freedesktop.DBus.Error.BadAddress", "org.freedesktop.DBus.Error.NoNetwork",
        "org.freedesktop.DBus.Error.NoMemory", "org.freedesktop.DBus.Error.AuthFailed",
    ]

    /// True when the failure is that there is no system bus at all, not a bus without bluetoothd.
    public var isNoSystemBus: Bool {
        guard case .busLost(let cause) = self else { return false }
        return Self.noSystemBusNames.contains(cause.name)
    }

    /// Answers meaning bluetoothd could not be started on demand: every D-Bus activation failure
    /// (`Spawn.ChildExited`, `Spawn.ExecFailed`, …) and systemd's unit errors (`NoSuchUnit`,
    /// `UnitMasked`, …) when the bus activates through systemd.
    static let noBluetoothdPrefixes = ["org.freedesktop.DBus.Error.Spawn.", "org.freedesktop.systemd1."]

    /// Maps a thrown error into the BlueZ vocabulary; cancellation and errors already classified pass through.
    static func classify(_ error: any Error) -> any Error {
        if let dbus = error as? DBusError { return BlueZError(dbus) }
        return error
    }

    /// The D-Bus error underneath, when the failure came from the bus.
    public var dbusError: DBusError? {
        switch self {
        case .bluetoothdNotRunning(let error), .busLost(let error), .accessDenied(let error), .notReady(let error),
            .notPermitted(let error), .notAuthorized(let error), .notSupported(let error), .notConnected(let error),
            .alreadyConnected(let error), .inProgress(let error), .doesNotExist(let error),
            .connectionAborted(let error), .failed(_, let error), .invalidArguments(let error),
            .pairingFailed(let error),
            .other(let error):
            error
        default:
            nil
        }
    }
}
