/// What the doctor's probes saw on the host, before any judgement; tests build these by hand.
struct DoctorFindings: Sendable, Equatable {
    /// The kernel's view of Bluetooth (HCI ioctls).
    enum Kernel: Sendable, Equatable {
        /// Bluetooth is built in; these controllers exist (`hci0 00:1A:7D:DA:71:13 usb up`).
        case controllers([Controller])
        /// `socket(AF_BLUETOOTH)` is not supported: no Bluetooth in this kernel.
        case noBluetooth
        /// The list could not be read for another reason.
        case unreadable(String)
    }

    /// One controller as the kernel lists it, with its udev station slot if a rule gave it one.
    struct Controller: Sendable, Equatable {
        var name: String
        var address: String
        var bus: String
        var isUp: Bool
        var slot: Int?
    }

    /// A system service reached over D-Bus.
    enum Service<Value: Sendable & Equatable>: Sendable, Equatable {
        /// It owns its bus name; what it reported.
        case running(Value)
        /// Nobody owns its bus name.
        case absent
        /// The system bus itself could not be reached, or the query failed.
        case unreachable(String)
    }

    /// One BlueZ adapter (`org.bluez.Adapter1`).
    struct Adapter: Sendable, Equatable {
        var name: String
        var address: String
        var isPowered: Bool
    }

    /// One rfkill switch from /sys/class/rfkill.
    struct RadioSwitch: Sendable, Equatable {
        /// `bluetooth` or `wlan`.
        var type: String
        var name: String
        var softBlocked: Bool
        var hardBlocked: Bool
    }

    /// One NetworkManager Wi-Fi device.
    struct WiFiDevice: Sendable, Equatable {
        var interface: String
        /// NetworkManager's device state number (100 activated, 30 disconnected, 20 unavailable, 10 unmanaged).
        var state: Int
    }

    var kernel: Kernel
    var bluetoothd: Service<[Adapter]>
    var radioSwitches: [RadioSwitch]
    var networkManager: Service<[WiFiDevice]>
    var isRoot: Bool
}
