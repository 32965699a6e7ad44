extension BluFiClient {
    /// One thing for the adapter or flow to do.
    ///
    /// The `description` names a write by its frame type and sequence number instead of printing its
    /// bytes, so logging actions never leaks a passphrase sent without encryption.
    public enum Action: Sendable, Equatable, CustomStringConvertible {
        /// Write these bytes to FF01 as one ATT write *with response*; wait for it before the next.
        case write([UInt8])
        /// Show or record progress.
        case report(BluFiClientEvent)
        /// Wait for notifications; call ``BluFiClient/deadlinePassed()`` if the step's timeout fires first.
        case wait(for: BluFiAwaitedReply)
        /// DISCONNECT_BLE is written: close the link; the session is complete.
        case finished
        /// The session failed; disconnect.
        case fail(BluFiError)

        public var description: String {
            switch self {
            case .write(let bytes) where bytes.count >= BluFiFrame.headerSize:
                "write \(BluFiFrameType(rawValue: bytes[0])) seq \(bytes[2]), \(bytes.count) bytes"
            case .write(let bytes): "write \(bytes.count)-byte value"
            case .report(let event): "report \(event)"
            case .wait(let reply): "wait for \(reply)"
            case .finished: "finished"
            case .fail(let error): "fail \(error)"
            }
        }
    }
}
