import SwiftProtobuf

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Byte-array coding for the generated wire messages, with failures as ``ProtocommError``.
extension SwiftProtobuf.Message {
    /// Decodes `bytes`; anything that is not this message becomes ``ProtocommError/malformedMessage(_:)``.
    init(wireBytes bytes: [UInt8]) throws(ProtocommError) {
        do {
            try self.init(serializedBytes: bytes)
        } catch {
            throw .malformedMessage(Self.protoMessageName)
        }
    }

    /// The serialized message.
    var wireBytes: [UInt8] {
        // proto3 messages have no required fields, so encoding cannot fail.
        guard let bytes: [UInt8] = try? serializedBytes() else {
            preconditionFailure("proto3 message \(Self.protoMessageName) failed to serialize")
        }
        return bytes
    }
}

extension Data {
    /// The bytes as an array, the form the cores and CryptoPrimitives use.
    var byteArray: [UInt8] { [UInt8](self) }
}
