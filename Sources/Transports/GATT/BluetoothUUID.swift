/// UUIDs in the 128-bit lower-case text form, so UUIDs from any stack and any profile compare as text.
public enum BluetoothUUID {
    /// Expands a 16-bit UUID onto the Bluetooth base UUID (`ffff` → `0000ffff-0000-1000-8000-00805f9b34fb`).
    public static func expand(_ short: UInt16) -> String {
        let digits = String(short, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits + "-0000-1000-8000-00805f9b34fb"
    }

    /// Lower-cases a UUID and expands 16- and 32-bit forms onto the base UUID.
    public static func normalized(_ uuid: String) -> String {
        let lower = uuid.lowercased()
        switch lower.count {
        case 4: return "0000" + lower + "-0000-1000-8000-00805f9b34fb"
        case 8: return lower + "-0000-1000-8000-00805f9b34fb"
        default: return lower
        }
    }
}
