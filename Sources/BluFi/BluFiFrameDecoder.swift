/// Reads one direction's frames, one write or notification at a time, and reassembles messages.
///
/// Each received value goes through two calls, in ESP-IDF's order, because a receiver must send a
/// requested ACK after the checksum passed but before reassembly can still fail:
/// 1. ``decodeFrame(_:)``: exact length, then sequence number (a mismatch does not advance the
///    expected number; a length error does not consume one), then decryption, then the checksum.
/// 2. ``reassemble(_:)``: fragments accumulate in ``state`` until a frame without the fragment flag
///    completes the message. Only the first fragment's length prefix counts; later ones are read past.
///
/// A failed checksum or decryption also drops a half-received message, as ESP-IDF does.
public struct BluFiFrameDecoder: Sendable {
    /// Where reassembly stands between two frames.
    public enum State: Sendable, Equatable {
        /// No fragmented message is open.
        case idle
        /// A fragmented message is open: `declaredLength` from its first fragment, `content` so far.
        case reassembling(declaredLength: Int, content: [UInt8])
    }

    /// The reassembly state, open for inspection between frames.
    public private(set) var state: State = .idle
    /// The sequence number the next frame must carry.
    public private(set) var expectedSequence: UInt8
    private var cipher: BluFiCipher?

    /// A decoder for a fresh connection, whose first frame is numbered 0 (or `sequence`).
    public init(expectingSequence sequence: UInt8 = 0) {
        expectedSequence = sequence
    }

    /// Starts (or, on renegotiation, restarts) decryption with a fresh cipher for this direction.
    public mutating func install(_ cipher: BluFiCipher?) {
        self.cipher = cipher
    }

    /// Validates, numbers, decrypts and checks one frame; the returned frame holds the plaintext data.
    public mutating func decodeFrame(_ bytes: [UInt8]) throws(BluFiError) -> BluFiFrame {
        guard bytes.count >= BluFiFrame.headerSize else { throw .truncatedFrame(byteCount: bytes.count) }
        let control = BluFiFrameControl(rawValue: bytes[1])
        let dataLength = Int(bytes[3])
        let expectedCount =
            BluFiFrame.headerSize + dataLength + (control.contains(.checksum) ? BluFiFrame.checksumSize : 0)
        guard bytes.count == expectedCount else {
            throw .frameLengthMismatch(expected: expectedCount, received: bytes.count)
        }
        let sequence = bytes[2]
        guard sequence == expectedSequence else {
            throw .sequenceMismatch(expected: expectedSequence, received: sequence)
        }
        expectedSequence &+= 1
        let data = Array(bytes[BluFiFrame.headerSize..<BluFiFrame.headerSize + dataLength])
        let frame = BluFiFrame(
            type: BluFiFrameType(rawValue: bytes[0]), control: control, sequence: sequence,
            data: try plaintext(of: data, control: control, sequence: sequence))
        if control.contains(.checksum) {
            let received = UInt16(bytes[expectedCount - 2]) | UInt16(bytes[expectedCount - 1]) << 8
            guard frame.checksum == received else {
                state = .idle
                throw .checksumMismatch(computed: frame.checksum, received: received)
            }
        }
        return frame
    }

    /// Adds a decoded frame to the open message; returns the message once its last frame arrived.
    public mutating func reassemble(_ frame: BluFiFrame) throws(BluFiError) -> BluFiMessage? {
        if frame.control.contains(.fragment) {
            try addFragment(frame.data)
            return nil
        }
        guard case .reassembling(let declared, let content) = state, !content.isEmpty else {
            // An empty open buffer is what ESP-IDF's `offset == 0` sees: the frame stands alone.
            return BluFiMessage(frame.type, frame.data)
        }
        state = .idle
        guard content.count + frame.data.count == declared else {
            throw .fragmentLengthMismatch(declared: declared, assembled: content.count + frame.data.count)
        }
        return BluFiMessage(frame.type, content + frame.data)
    }

    private mutating func plaintext(
        of data: [UInt8], control: BluFiFrameControl, sequence: UInt8
    ) throws(BluFiError) -> [UInt8] {
        guard control.contains(.encrypted) else { return data }
        guard var cipher else {
            state = .idle
            throw .encryptedBeforeNegotiation
        }
        let plaintext = try cipher.decrypt(data, sequence: sequence)
        self.cipher = cipher
        return plaintext
    }

    private mutating func addFragment(_ data: [UInt8]) throws(BluFiError) {
        guard data.count >= 2 else {
            state = .idle
            throw .fragmentWithoutLengthPrefix
        }
        let declared: Int
        var content: [UInt8]
        switch state {
        case .idle:
            declared = Int(data[0]) | Int(data[1]) << 8
            guard declared > 0 else { throw .fragmentDeclaresZeroLength }
            content = []
        case .reassembling(_, let sofar) where sofar.isEmpty:
            state = .idle
            throw .fragmentRestarted
        case .reassembling(let open, let sofar):
            declared = open
            content = sofar
        }
        content += data.dropFirst(2)
        guard content.count <= declared else {
            state = .idle
            throw .fragmentLengthMismatch(declared: declared, assembled: content.count)
        }
        state = .reassembling(declaredLength: declared, content: content)
    }
}
