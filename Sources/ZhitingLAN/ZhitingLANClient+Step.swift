extension ZhitingLANClient {
    /// What the caller does after a datagram.
    public enum Step: Sendable, Equatable {
        /// Not a reply this session can use; keep waiting for the pending one.
        case ignored(IgnoredDatagram)
        /// The device handed over its token; send `next` (the `get_prop.info` request).
        case tokenReceived(next: [UInt8])
        /// The device described itself; send `next` (`set_prop.server`), or stop when it is nil.
        case infoReceived(ZhitingDeviceInfo, next: [UInt8]?)
        /// The device echoed the server and port it was given: the hand-off is confirmed.
        case serverConfirmed(ZhitingServerEcho)
    }

    /// Why a datagram was ignored; logged, and used to tell "silent device" from "device speaking another dialect".
    public enum IgnoredDatagram: Sendable, Equatable {
        /// Not a Zhiting packet at all (truncated, oversized, wrong magic or length).
        case malformed(ZhitingLANError)
        /// A hello request: our own broadcast or another client's.
        case hello
        /// A packet from a different device.
        case otherDevice(ZhitingDeviceID)
        /// The device answering a (resent) hello.
        case helloReply
        /// A bare header where a payload was due.
        case emptyPayload
        /// The token reply again, answering a resent token request.
        case duplicateToken
        /// A payload that does not decrypt under the expected secret.
        case undecryptable
        /// A token reply that decrypted to the wrong length.
        case malformedToken(length: Int)
        /// A payload that decrypted but is not a JSON-RPC reply.
        case notJSON
        /// A reply to a request other than the pending one.
        case unexpectedID(Int?)
        /// Anything after the session finished.
        case afterFinish

        /// True when the target device itself sent something unusable, as opposed to noise from elsewhere
        /// or harmless repeats.
        public var isUnusableReplyFromTarget: Bool {
            switch self {
            case .emptyPayload, .undecryptable, .malformedToken, .notJSON, .unexpectedID: true
            case .malformed, .hello, .otherDevice, .helloReply, .duplicateToken, .afterFinish: false
            }
        }
    }
}
