/// Why the kernel's controller list could not be read.
public enum HCIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `socket(AF_BLUETOOTH)` failed with `EAFNOSUPPORT`: the kernel was built or booted without Bluetooth
    /// (common in containers and CI), so no adapter can ever appear.
    case kernelHasNoBluetooth
    /// A system call failed; `errno` as reported.
    case systemCall(String, errno: Int32)

    /// One line for the user, with what to try.
    public var description: String {
        switch self {
        case .kernelHasNoBluetooth:
            "the kernel has no Bluetooth support (socket(AF_BLUETOOTH) failed with EAFNOSUPPORT); "
                + "load the bluetooth module or run on a host with Bluetooth"
        case .systemCall(let call, let errno):
            "\(call) failed with errno \(errno)"
        }
    }
}
