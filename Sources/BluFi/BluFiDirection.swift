/// Which way a frame travels; each direction has its own sequence counter and, in V2, its own keystream.
public enum BluFiDirection: Sendable, Hashable {
    /// Phone (GATT client) to device: ATT writes to FF01.
    case phoneToDevice
    /// Device to phone: notifications on FF02, with ``BluFiFrameControl/fromDevice`` set.
    case deviceToPhone
}
