import FoundationEssentials

/// Resolves a station slot number to the kernel name of its controller.
public protocol BlueZSlotLookup: Sendable {
    /// The `hciN` name of the controller in `slot`, or nil when no controller has that slot.
    func controllerName(forSlot slot: Int) throws -> String?
}

/// Reads the slot from udev's database: a rule such as
/// `SUBSYSTEM=="bluetooth", ENV{DEVTYPE}=="host", ENV{ID_PATH}=="pci-0000:00:14.0-usb-0:2:1.0", ENV{ZTPROV_SLOT}="1"`
/// leaves `E:ZTPROV_SLOT=1` in `/run/udev/data/+bluetooth:hciN`. Controllers cannot be renamed, so the
/// property is how a USB port keeps its station number.
public struct UdevSlotLookup: BlueZSlotLookup {
    /// Where controllers are listed (`/sys/class/bluetooth`).
    public var controllersDirectory: String
    /// udev's database directory (`/run/udev/data`).
    public var udevDataDirectory: String
    /// The udev property holding the slot number.
    public var property: String

    /// The system locations and the `ZTPROV_SLOT` property.
    public init(
        controllersDirectory: String = "/sys/class/bluetooth", udevDataDirectory: String = "/run/udev/data",
        property: String = "ZTPROV_SLOT"
    ) {
        self.controllersDirectory = controllersDirectory
        self.udevDataDirectory = udevDataDirectory
        self.property = property
    }

    /// Scans the controllers' udev records for the slot.
    public func controllerName(forSlot slot: Int) throws -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: controllersDirectory)) ?? []
        return names.sorted().first { name in
            name.hasPrefix("hci") && !name.contains(":") && self.slot(ofController: name) == slot
        }
    }

    /// The slot udev gave controller `name` (`E:<property>=N` in its record), or nil when it has none.
    public func slot(ofController name: String) -> Int? {
        let record = udevDataDirectory + "/+bluetooth:" + name
        guard let text = try? String(contentsOfFile: record, encoding: .utf8) else { return nil }
        let prefix = "E:\(property)="
        return text.split(separator: "\n").first { $0.hasPrefix(prefix) }.flatMap { Int($0.dropFirst(prefix.count)) }
    }
}
