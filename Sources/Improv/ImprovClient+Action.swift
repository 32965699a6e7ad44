extension ImprovClient {
    /// One thing for the flow to do, in order.
    ///
    /// The `description` of a write gives its size only: a Wi-Fi settings frame carries the password.
    public enum Action: Sendable, Hashable, CustomStringConvertible {
        /// Read this characteristic and hand the value to ``ImprovClient/readCompleted(_:value:)``.
        case read(ImprovCharacteristic)
        /// Write these bytes to the RPC command characteristic, with response, before the next write.
        case write([UInt8])
        /// Show or record progress.
        case report(ImprovClientEvent)
        /// Wait for notifications; call ``ImprovClient/deadlinePassed()`` if the timeout fires first.
        case wait(for: ImprovAwaitedReply)
        /// Every request is done; disconnect.
        case finished
        /// The conversation failed; disconnect.
        case fail(ImprovError)

        public var description: String {
            switch self {
            case .read(let characteristic): "read \(characteristic)"
            case .write(let bytes): "write \(bytes.count)-byte RPC piece"
            case .report(let event): "report \(event)"
            case .wait(let reply): "wait for \(reply)"
            case .finished: "finished"
            case .fail(let error): "fail \(error)"
            }
        }
    }
}
