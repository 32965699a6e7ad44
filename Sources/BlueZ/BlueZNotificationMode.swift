/// How the notify characteristic's values reach ztprov.
public enum BlueZNotificationMode: Sendable, Hashable {
    /// `StartNotify`; values arrive as `PropertiesChanged` on `Value`, and `StopNotify` ends them. The default:
    /// BlueZ drops notifications that precede the CCCD write's answer on the socket path (bleak#1885, which
    /// made bleak switch back), and the call log then shows notifications being stopped.
    case startNotify
    /// `AcquireNotify` when the characteristic offers it (`notify` flag and a `NotifyAcquired` property),
    /// reading values from the returned socket and closing it to stop; `StartNotify` when it is not offered or
    /// refused.
    case acquireWhereOffered
}

extension BlueZGATTCharacteristic {
    /// Whether BlueZ would hand out a notification socket: it exports `NotifyAcquired` only then.
    var offersAcquireNotify: Bool {
        flags.contains("notify") && properties["NotifyAcquired"] != nil
    }
}
