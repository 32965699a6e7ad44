/// Why the Improv core refused bytes, a call, or ended a conversation.
public enum ImprovError: Error, Sendable, Hashable {
    // MARK: The peer violated the protocol

    /// Fewer bytes than the header (or its length byte) promises.
    case truncatedFrame(declared: Int?, received: Int)
    /// More bytes than the length byte declares.
    case frameLengthMismatch(declared: Int, received: Int)
    case badChecksum(expected: UInt8, received: UInt8)
    /// A string length runs past the end of the frame's data.
    case malformedStringList
    /// Strict UTF-8 is required of every string a device sends.
    case invalidUTF8
    /// A result with a string count the command does not allow.
    case unexpectedStringCount(ImprovCommand, Int)
    /// A scan entry whose RSSI is not a small decimal integer.
    case malformedScanEntry
    /// A result for a command that has none, or that the client did not send.
    case unexpectedResult(command: UInt8)
    /// A state, error or capabilities value that is not exactly one byte.
    case malformedCharacteristicValue(ImprovCharacteristic, length: Int)
    case unknownState(UInt8)
    /// Advertised service data that is not the six bytes of the specification.
    case malformedServiceData(length: Int)
    /// The device went back to a state that makes no sense at this point (for example provisioning
    /// ended in "authorization required" without an error).
    case unexpectedState(ImprovState)

    // MARK: The device refused or failed

    /// The device reported this error on the error-state characteristic.
    case device(ImprovDeviceError, during: ImprovCommand)
    /// The device is already provisioned and its Improv service is stopped.
    case alreadyProvisioned
    /// The device does not advertise the capability this command needs, or answered it as unknown.
    case unsupported(ImprovCommand)

    // MARK: A deadline passed

    /// Nobody pressed the button (or whatever the device asks) before the deadline.
    case authorizationTimedOut
    /// The device did not answer the command before the deadline.
    case noReply(ImprovCommand)

    // MARK: The caller misused the core

    case dataTooLong(Int)
    /// An SSID must be 1–32 bytes.
    case invalidSSID(length: Int)
    /// A password must be empty, 8–63 bytes, or 64 hexadecimal digits.
    case invalidPassword(length: Int)
    /// Not an RFC 1123 hostname that fits a frame.
    case invalidHostname
    case invalidDeviceName
}
