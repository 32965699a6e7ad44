/// The one error type the command line shows: what happened, what a person can do about it, and
/// the underlying system or protocol detail for `--verbose`.
public struct ProvisioningError: Error, Sendable, Equatable, CustomStringConvertible {
    public let code: ErrorCode
    /// One sentence saying what went wrong, e.g. "Bluetooth adapter hci0 is powered off."
    public let message: String
    /// One sentence a person can act on, e.g. "Run `bluetoothctl power on`."
    public let hint: String
    /// The cause in the system's own words (D-Bus error name, NetworkManager reason, errno).
    public let detail: String?
    /// The networks the device reported hearing, when its scan explains the failure (a join that failed).
    public internal(set) var heardNetworks: [HeardNetwork]?

    public init(_ code: ErrorCode, _ message: String, hint: String, detail: String? = nil) {
        self.code = code
        self.message = message
        self.hint = hint
        self.detail = detail
    }

    public var exitStatus: ExitStatus { code.exitStatus }

    public var description: String { "error[\(code)]: \(message)" }
}
