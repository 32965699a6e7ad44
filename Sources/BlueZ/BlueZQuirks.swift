/// bluetoothd behaviours ztprov works around, each named, explained and tested.
public enum BlueZQuirks {
    /// A locally aborted LE connect is reported as `org.bluez.Error.Failed` with reason
    /// `le-connection-abort-by-local` since BlueZ 5.62 (commit "error: BR/EDR and LE connection failure
    /// reasons", `src/error.h`), and as "Software caused connection abort" (ECONNABORTED's text) before. It is
    /// usually RF trouble or Wi-Fi coexistence on combo chips and normally succeeds on retry.
    public static let localConnectionAbortReasons = [
        "le-connection-abort-by-local", "Software caused connection abort",
    ]

    /// Whether a `NoReply` says bluetoothd left the bus with the call unanswered (it died or was
    /// stopped), rather than that the call ran out of time; the bus daemon reports both as `NoReply`.
    public static func isRecipientGone(_ message: String) -> Bool {
        message.contains("recipient disconnected from message bus")
    }

    /// Whether a `Failed` reason is a locally aborted connect, in either daemon generation's words.
    public static func isLocalConnectionAbort(_ reason: String) -> Bool {
        localConnectionAbortReasons.contains { reason.lowercased().contains($0.lowercased()) }
    }

    /// A device BlueZ already knows does not reappear through `InterfacesAdded` when discovery sees it again;
    /// only its `RSSI` (and other advertisement properties) change. These properties count as "seen now".
    public static let advertisementProperties: Set<String> = [
        "RSSI", "ManufacturerData", "ServiceData", "UUIDs", "Name", "TxPower",
    ]

    /// `StopDiscovery` answers `NotReady` or `Failed: No discovery started` when discovery already ended (for
    /// instance when the adapter went down); stopping is then already done. It answers `InProgress` when the
    /// kernel rejected the stop because it was between scan windows, and bluetoothd ends the client's
    /// discovery all the same (src/adapter.c stop_discovery_complete); the lab meets it with four adapters.
    public static func stopDiscoveryAlreadyDone(_ error: BlueZError) -> Bool {
        switch error {
        case .notReady, .doesNotExist, .inProgress: true
        case .failed(let reason, _): reason.lowercased().contains("no discovery started")
        default: false
        }
    }

    /// bluetoothd 5.66 raises a link's security by itself when the device refuses an access with ATT
    /// "insufficient encryption" (`src/shared/att.c`), and pairs. It asks only a default agent to confirm Just
    /// Works for a device that wants MITM protection (`src/device.c`), so without one, or when the device
    /// refuses, that pairing fails and the access is never answered: the kernel keeps the ATT channel
    /// suspended until a pairing succeeds. An access on an unpaired link still unanswered after this long
    /// therefore pairs through our own agent meanwhile; an explicit `Pair` confirms Just Works by itself.
    public static let unansweredAccessPairingDelay: Duration = .seconds(2)

    /// When the device refuses the pairing bluetoothd 5.66 started by itself on a refused access, the kernel
    /// drops the link and bluetoothd answers the access with `Failed` "Operation failed with ATT error: 0x0e"
    /// (ATT "unlikely error"), not with a pairing error; pairing explicitly then tells what happened.
    public static func endedByFailedPairing(_ error: BlueZError) -> Bool {
        guard case .failed(let reason, _) = error else { return false }
        return attError(in: reason) == 0x0E
    }

    /// The ATT MTU when the stack does not report one: the ATT default. `GattCharacteristic1.MTU` exists only
    /// since BlueZ 5.62; before that only `AcquireWrite`/`AcquireNotify` revealed it.
    public static let defaultATTMTU = 23

    /// `WriteValue` answers `InProgress` while another GATT operation runs on the link; there is no readiness
    /// signal, so bleak polls every 10 ms until its deadline.
    public static let writeInProgressPollInterval = Duration.milliseconds(10)

    /// bluetoothd reports a GATT access that needs an encrypted or paired link (ATT 0x05, 0x0C, 0x0F) as
    /// `NotPermitted` "Not paired"; other `NotPermitted` answers are refusals that pairing does not change.
    public static func isNotPaired(_ message: String) -> Bool {
        message.lowercased().contains("not paired")
    }

    /// The ATT error code in a `Failed` reason such as "Operation failed with ATT error: 0x0e".
    public static func attError(in reason: String) -> UInt8? {
        let marker = "att error: 0x"
        let lower = reason.lowercased()
        guard let start = lower.indices.first(where: { lower[$0...].hasPrefix(marker) }) else { return nil }
        let digits = lower[start...].dropFirst(marker.count).prefix { $0.isHexDigit }
        guard digits.count == 2 else { return nil }
        return UInt8(digits, radix: 16)
    }
}
