/// A reply on a protocomm endpoint, whose message type says which command it answers.
///
/// The device answers every command with the matching response type; a reply of another type means the
/// conversation is out of step, which each request's `response(from:)` turns into an error.
protocol ProtocommReply {
    associatedtype MessageType: Equatable
    init(serializedBytes bytes: [UInt8]) throws(ProtocommError)
    var messageType: MessageType { get }
}

extension ProtocommReply {
    /// Parses a reply and checks that it is the `expected` response type.
    init(serializedBytes bytes: [UInt8], answering expected: MessageType) throws(ProtocommError) {
        try self.init(serializedBytes: bytes)
        guard messageType == expected else {
            throw .unexpectedMessage(expected: "\(expected)", received: "\(messageType)")
        }
    }
}
