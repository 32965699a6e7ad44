/// The GATT layout a BluFi device serves (ESP-IDF's `esp_blufi.c`, Bluedroid and NimBLE hosts alike): one
/// service, a write and a notify characteristic.
///
/// Enable notifications on ``notifyCharacteristicUUID`` before the first write (NimBLE builds drop
/// every frame to an unsubscribed client) and write with response, one frame per write.
public enum BluFiGATTProfile {
    /// The BluFi service, 16-bit `FFFF`; also the UUID to look for in advertisements.
    public static let serviceUUID = "0000ffff-0000-1000-8000-00805f9b34fb"
    /// FF01: phone → device frames, Write (with response) only.
    public static let writeCharacteristicUUID = "0000ff01-0000-1000-8000-00805f9b34fb"
    /// FF02: device → phone frames as notifications.
    public static let notifyCharacteristicUUID = "0000ff02-0000-1000-8000-00805f9b34fb"
}
