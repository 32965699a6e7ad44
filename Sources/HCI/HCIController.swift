/// A Bluetooth controller as the kernel lists it, independent of bluetoothd.
public struct HCIController: Sendable, Hashable {
    /// The kernel's index: the N in `hciN`.
    public var index: Int
    /// The kernel name, `hciN`.
    public var name: String
    /// The controller address, `AA:BB:CC:DD:EE:FF` (all zeros until the controller was first powered).
    public var address: String
    /// How the controller is attached.
    public var bus: HCIBus
    /// Whether the kernel has the controller up (`hciconfig hciN up`).
    public var isUp: Bool

    /// Describes a controller.
    public init(index: Int, name: String, address: String, bus: HCIBus, isUp: Bool) {
        self.index = index
        self.name = name
        self.address = address
        self.bus = bus
        self.isUp = isUp
    }

    /// Builds the description from `hci_dev_info` fields: the address little-endian as the kernel stores it,
    /// the bus in the low nibble of `type`, and the `HCI_UP` bit (bit 0) of `flags`.
    init(index: Int, name: String, littleEndianAddress: [UInt8], type: UInt8, flags: UInt32) {
        let address = littleEndianAddress.reversed().map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return byte < 0x10 ? "0" + digits : digits
        }
        self.init(
            index: index, name: name, address: address.joined(separator: ":"),
            bus: HCIBus(code: type & 0x0F), isUp: flags & 1 != 0)
    }
}

/// The transport a controller hangs off (`HCI_USB`, `HCI_UART` … in `hci.h`).
public enum HCIBus: String, Sendable, Hashable, CaseIterable {
    case virtual
    case usb
    case pcCard = "pccard"
    case uart
    case rs232
    case pci
    case sdio
    case spi
    case i2c
    case smd
    case virtio
    case unknown

    /// Maps the kernel's bus code; codes newer than this list are `.unknown`.
    init(code: UInt8) {
        let ordered: [HCIBus] = [.virtual, .usb, .pcCard, .uart, .rs232, .pci, .sdio, .spi, .i2c, .smd, .virtio]
        self = Int(code) < ordered.count ? ordered[Int(code)] : .unknown
    }
}
