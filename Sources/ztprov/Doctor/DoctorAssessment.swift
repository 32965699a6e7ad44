import Provisioning

/// Judges ``DoctorFindings``: one ``DoctorCheck`` per host facility, in the order a person fixes them.
///
/// BLE needs kernel Bluetooth, a controller, bluetoothd, a powered adapter and an unblocked radio;
/// SoftAP needs NetworkManager with a Wi-Fi device and an unblocked Wi-Fi radio. Slots and
/// permissions only warn: both paths work without them, with less convenience.
struct DoctorAssessment {
    let findings: DoctorFindings

    var checks: [DoctorCheck] {
        [kernel, controllers, bluetoothd, adapters]
            + ["bluetooth", "wlan"].map(radio) + [slots, networkManager, wifiDevices, permissions]
    }

    private var kernel: DoctorCheck {
        switch findings.kernel {
        case .controllers:
            DoctorCheck("kernel-bluetooth", .ok, "the kernel supports Bluetooth (AF_BLUETOOTH)")
        case .noBluetooth:
            DoctorCheck(
                "kernel-bluetooth", .fail, "the kernel has no Bluetooth support (socket(AF_BLUETOOTH): EAFNOSUPPORT)",
                hint: "Load the module (modprobe bluetooth btusb) or use a host or VM whose kernel has Bluetooth;"
                    + " containers share the host's kernel.",
                code: .kernelBluetoothMissing, requiredFor: [.ble])
        case .unreadable(let reason):
            DoctorCheck(
                "kernel-bluetooth", .fail, "the controller list could not be read: \(reason)",
                hint: "Run as root, or check that nothing restricts AF_BLUETOOTH sockets (seccomp, AppArmor).",
                code: .permissionDenied, requiredFor: [.ble])
        }
    }

    private var controllers: DoctorCheck {
        guard case .controllers(let list) = findings.kernel else {
            return DoctorCheck(
                "controllers", .fail, "no controllers without kernel Bluetooth",
                hint: "Fix kernel-bluetooth first.", code: .noBluetoothAdapter, requiredFor: [.ble])
        }
        guard !list.isEmpty else {
            return DoctorCheck(
                "controllers", .fail, "no Bluetooth controller is present",
                hint: "Plug in a Bluetooth LE USB dongle (or enable the built-in one) and check `dmesg` for firmware.",
                code: .noBluetoothAdapter, requiredFor: [.ble])
        }
        let described = list.map { "\($0.name) \($0.address) \($0.bus) \($0.isUp ? "up" : "down")" }
        return DoctorCheck("controllers", .ok, described.joined(separator: "; "))
    }

    private var bluetoothd: DoctorCheck {
        Self.service(
            "bluetoothd", findings.bluetoothd, running: "bluetoothd owns org.bluez on the system bus",
            absent: "nothing owns org.bluez on the system bus",
            hint: "Install and start BlueZ: apt install bluez && systemctl enable --now bluetooth.",
            code: .bluetoothdAbsent, requiredFor: .ble)
    }

    private var adapters: DoctorCheck {
        guard case .running(let adapters) = findings.bluetoothd else {
            return DoctorCheck(
                "adapter-powered", .fail, "unknown without bluetoothd", hint: "Fix bluetoothd first.",
                code: .bluetoothAdapterPoweredOff, requiredFor: [.ble])
        }
        let powered = adapters.filter(\.isPowered)
        guard !powered.isEmpty else {
            return DoctorCheck(
                "adapter-powered", .fail,
                adapters.isEmpty
                    ? "bluetoothd knows no adapter"
                    : "no adapter is powered ("
                        + adapters.map(\.name).joined(separator: ", ") + ")",
                hint: "Power one on: bluetoothctl power on (after rfkill unblock bluetooth if it is blocked).",
                code: .bluetoothAdapterPoweredOff, requiredFor: [.ble])
        }
        let others = adapters.filter { !$0.isPowered }.map { "\($0.name) off" }
        let described = powered.map { "\($0.name) \($0.address) powered" } + others
        return DoctorCheck("adapter-powered", .ok, described.joined(separator: "; "))
    }

    private func radio(_ type: String) -> DoctorCheck {
        let name = type == "wlan" ? "rfkill-wifi" : "rfkill-bluetooth"
        let path: DoctorCheck.Path = type == "wlan" ? .softap : .ble
        let switches = findings.radioSwitches.filter { $0.type == type }
        let blocked = switches.filter { $0.softBlocked || $0.hardBlocked }
        guard !blocked.isEmpty else {
            return DoctorCheck(name, .ok, switches.isEmpty ? "no \(type) rfkill switch" : "not blocked")
        }
        let hard = blocked.contains(where: \.hardBlocked)
        let described = blocked.map { "\($0.name) " + ($0.hardBlocked ? "hard-blocked" : "soft-blocked") }
        return DoctorCheck(
            name, .fail, described.joined(separator: "; "),
            hint: hard
                ? "A hardware switch or the firmware blocks the radio; turn it on."
                : "Unblock it: rfkill unblock \(type) (members of the ztprov group may, with udev/70-ztprov.rules).",
            code: .hostRadioBlocked, requiredFor: [path])
    }

    private var slots: DoctorCheck {
        guard case .controllers(let list) = findings.kernel, !list.isEmpty else {
            return DoctorCheck("station-slots", .ok, "no controllers to give slots to")
        }
        let slotted = list.filter { $0.slot != nil }
        guard !slotted.isEmpty else {
            return DoctorCheck(
                "station-slots", .warn, "no controller has a ZTPROV_SLOT",
                hint: "Install udev/70-ztprov.rules with your USB ports so --adapter slot:N survives renumbering.")
        }
        let described = slotted.map { "slot \($0.slot ?? 0) = \($0.name)" }
        return DoctorCheck("station-slots", .ok, described.joined(separator: "; "))
    }

    private var networkManager: DoctorCheck {
        Self.service(
            "networkmanager", findings.networkManager,
            running: "NetworkManager owns org.freedesktop.NetworkManager", absent: "NetworkManager is not running",
            hint: "Install and start it: apt install network-manager && systemctl enable --now NetworkManager.",
            code: .networkServiceUnavailable, requiredFor: .softap)
    }

    /// A system service's check: fine while it owns its bus name; failing, with `code`, when nobody does
    /// (`hint` says how to start it) or the system bus itself could not be asked.
    private static func service<Value>(
        _ name: String, _ service: DoctorFindings.Service<Value>, running: String, absent: String, hint: String,
        code: ErrorCode, requiredFor path: DoctorCheck.Path
    ) -> DoctorCheck {
        switch service {
        case .running: DoctorCheck(name, .ok, running)
        case .absent: DoctorCheck(name, .fail, absent, hint: hint, code: code, requiredFor: [path])
        case .unreachable(let reason):
            DoctorCheck(
                name, .fail, "the system bus could not be asked: \(reason)",
                hint: "Check that dbus is running (systemctl status dbus) and DBUS_SYSTEM_BUS_ADDRESS, if set.",
                code: code, requiredFor: [path])
        }
    }

    private var wifiDevices: DoctorCheck {
        guard case .running(let devices) = findings.networkManager else {
            return DoctorCheck(
                "wifi-device", .fail, "unknown without NetworkManager", hint: "Fix networkmanager first.",
                code: .wifiInterfaceUnavailable, requiredFor: [.softap])
        }
        let usable = devices.filter { $0.state > 20 }
        guard !usable.isEmpty else {
            return DoctorCheck(
                "wifi-device", .fail,
                devices.isEmpty
                    ? "NetworkManager has no Wi-Fi device"
                    : "no Wi-Fi device is usable ("
                        + devices.map { "\($0.interface) state \($0.state)" }.joined(separator: ", ") + ")",
                hint: "Plug in a Wi-Fi adapter, let NetworkManager manage it (nmcli device set IF managed yes)"
                    + " and enable Wi-Fi (nmcli radio wifi on).",
                code: .wifiInterfaceUnavailable, requiredFor: [.softap])
        }
        return DoctorCheck("wifi-device", .ok, usable.map(\.interface).joined(separator: ", "))
    }

    private var permissions: DoctorCheck {
        guard !findings.isRoot else { return DoctorCheck("permissions", .ok, "running as root") }
        return DoctorCheck(
            "permissions", .warn, "not root: BlueZ and NetworkManager decide by polkit",
            hint: "Add yourself to the ztprov and bluetooth groups (the package's polkit rule lets the ztprov"
                + " group use NetworkManager; from source, install the rule as the README says), or run as root.",
            code: .permissionDenied)
    }
}
