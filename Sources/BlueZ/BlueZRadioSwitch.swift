import FoundationEssentials
import StringEssentials

/// Whether the kernel's rfkill switch blocks a controller.
///
/// bluetoothd 5.66 reports an adapter that rfkill soft-blocked while it was up as plain `off`: its
/// `off-blocked` power state appears only after a power-on attempt failed. The switch itself says why
/// the adapter is off, so `bluetoothctl power on` is not suggested where it cannot work.
public protocol BlueZRadioSwitch: Sendable {
    /// True when a soft or hard rfkill block holds the controller `hciN` down.
    func isBlocked(controller: String) -> Bool
}

/// Reads the switch from sysfs: `/sys/class/bluetooth/hciN/rfkillM/{soft,hard}`.
public struct SysfsRadioSwitch: BlueZRadioSwitch {
    /// Where controllers are listed (`/sys/class/bluetooth`).
    public var controllersDirectory: String

    /// The system location.
    public init(controllersDirectory: String = "/sys/class/bluetooth") {
        self.controllersDirectory = controllersDirectory
    }

    public func isBlocked(controller: String) -> Bool {
        let directory = controllersDirectory + "/" + controller
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return entries.filter { $0.hasPrefix("rfkill") }.contains { entry in
            ["soft", "hard"].contains { file in
                let text = try? String(contentsOfFile: "\(directory)/\(entry)/\(file)", encoding: .utf8)
                return text?.trimmingWhitespace() == "1"
            }
        }
    }
}
