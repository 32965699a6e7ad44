/// One BluFi frame as it travels in a single ATT write (phone → device) or notification (device → phone).
///
/// Wire format (all values on one frame), as ESP-IDF's `blufi_prf.c` parses and builds it:
///
/// ```
/// offset  size  field
/// 0       1     type           bits 0-1 frame kind (0 control, 1 data), bits 2-7 subtype
/// 1       1     frame control  0x01 encrypted, 0x02 checksum, 0x04 device→phone, 0x08 ACK required, 0x10 fragment
/// 2       1     sequence       per direction, 0, 1, 2 … wrapping at 255; every frame (ACKs, fragments) takes one
/// 3       1     data length    N, the data field only
/// 4       N     data           encrypted as a whole when flagged; a fragment starts with the 2-byte
///                              little-endian count of message bytes from this fragment to the end
/// 4+N     2     checksum       only when flagged: CRC-16/GENIBUS over sequence, data length and the
///                              *plaintext* data, low byte first, never encrypted
/// ```
///
/// A message longer than one frame is split into fragments that all but the last carry the fragment
/// flag and the remaining-length prefix. The receiver checks the exact length first, then the sequence
/// number, then decrypts, then verifies the checksum, then reassembles — the order ESP-IDF uses, and the
/// order in which its error codes are decided.
///
/// This value holds the *plaintext* data field; ``BluFiFrameEncoder`` applies encryption and the
/// checksum on the way out and ``BluFiFrameDecoder`` removes them on the way in.
public struct BluFiFrame: Sendable, Equatable {
    /// Type, frame control, sequence and data length.
    public static let headerSize = 4
    /// The trailing CRC when ``BluFiFrameControl/checksum`` is set.
    public static let checksumSize = 2
    /// The data length field is one byte.
    public static let maximumDataLength = 255

    /// Kind and subtype.
    public var type: BluFiFrameType
    /// The frame-control flags.
    public var control: BluFiFrameControl
    /// The sender's sequence number for this frame.
    public var sequence: UInt8
    /// The plaintext data field, including a fragment's total-length prefix.
    public var data: [UInt8]

    /// A frame with plaintext `data`.
    public init(type: BluFiFrameType, control: BluFiFrameControl, sequence: UInt8, data: [UInt8]) {
        self.type = type
        self.control = control
        self.sequence = sequence
        self.data = data
    }

    /// The checksum a frame with this sequence number and plaintext data carries.
    public var checksum: UInt16 {
        BluFiChecksum.compute([sequence, UInt8(truncatingIfNeeded: data.count)] + data)
    }
}
