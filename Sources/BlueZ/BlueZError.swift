public import DBus

/// Why a BlueZ operation failed, keeping bluetoothd's own error (name and message) wherever there is one.
public enum BlueZError: Error, Sendable, Hashable {
    /// Nothing owns `org.bluez` on the bus: bluetoothd is not running.
    case bluetoothdNotRunning(DBusError)
    /// The bus connection went away.
    case busLost(DBusError)
    /// The bus policy refused the call (D-Bus `AccessDenied`).
    case accessDenied(DBusError)
    /// bluetoothd exports no adapter.
    case noAdapter
    /// No adapter matches the selection (`hciN`, address or slot).
    case adapterNotFound(String)
    /// The adapter is off (`Powered` false).
    case adapterPoweredOff(String)
    /// rfkill blocks the adapter (`PowerState` `off-blocked`, or `org.bluez.Error.Blocked`).
    case adapterBlocked(String)
    /// Discovery ended without a matching device.
    case deviceNotFound
    /// `org.bluez.Error.NotReady`: the adapter is not powered.
    case notReady(DBusError)
    /// `org.bluez.Error.NotPermitted`, e.g. "Notify acquired" held by another client.
    case notPermitted(DBusError)
    /// `org.bluez.Error.NotAuthorized`.
    case notAuthorized(DBusError)
    /// `org.bluez.Error.NotSupported`.
    case notSupported(DBusError)
    /// `org.bluez.Error.NotConnected`.
    case notConnected(DBusError)
    /// `org.bluez.Error.AlreadyConnected`.
    case alreadyConnected(DBusError)
    /// `org.bluez.Error.InProgress`: an earlier operation (often a stale `Connect`) is still pending.
    case inProgress(DBusError)
    /// `org.bluez.Error.DoesNotExist` or D-Bus `UnknownObject`: the object was removed (e.g. evicted).
    case doesNotExist(DBusError)
    /// `org.bluez.Error.Failed` with a locally aborted LE connection: usually radio trouble, worth a retry.
    case connectionAborted(DBusError)
    /// `org.bluez.Error.Failed` with another reason.
    case failed(reason: String, DBusError)
    /// `org.bluez.Error.InvalidArguments`, `InvalidValueLength` or D-Bus `InvalidArgs`.
    case invalidArguments(DBusError)
    /// A step did not finish before its deadline.
    case timedOut(String)
    /// The link dropped (device disconnected or removed) while it was needed.
    case linkLost(String)
    /// The device resolved its services but not the ones the profile needs (stale cache or wrong device).
    case servicesMissing(String)
    /// Pairing failed: the device refused or cancelled it, or it timed out (`org.bluez.Error.Authentication*`).
    case pairingFailed(DBusError)
    /// Any other D-Bus error.
    case other(DBusError)
}
