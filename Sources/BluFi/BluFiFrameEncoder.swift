/// Turns messages into the wire bytes of one direction: numbers, splits, checksums and encrypts frames.
///
/// Rules: every frame (fragment, ACK, error) takes the next sequence number; the checksum covers the
/// plaintext and is computed before encryption; a frame with the encrypted flag but no data consumes
/// no keystream.
public struct BluFiFrameEncoder: Sendable {
    /// Which side sends: sets the direction flag and picks the fragmentation rule.
    public let direction: BluFiDirection
    /// The ATT MTU the fragment size follows; `nil` until known.
    public var attMTU: Int?
    /// The sequence number the next frame gets.
    public private(set) var nextSequence: UInt8
    private var cipher: BluFiCipher?

    /// An encoder for a fresh connection (first frame numbered 0), or from `sequence` to replay a capture.
    public init(direction: BluFiDirection, attMTU: Int?, startingAt sequence: UInt8 = 0) {
        self.direction = direction
        self.attMTU = attMTU
        nextSequence = sequence
    }

    /// Whether frames can be encrypted yet.
    public var hasCipher: Bool { cipher != nil }

    /// Starts (or, on renegotiation, restarts) encryption with a fresh cipher for this direction.
    public mutating func install(_ cipher: BluFiCipher?) {
        self.cipher = cipher
    }

    /// The frames of `message`, each with the options in `control`; fragmentation is added as needed.
    public mutating func encode(
        _ message: BluFiMessage, control: BluFiFrameControl = []
    ) throws(BluFiError) -> [[UInt8]] {
        guard message.payload.count <= BluFiFragmenter.maximumMessageLength else {
            throw .messageTooLong(byteCount: message.payload.count)
        }
        if control.contains(.encrypted) && cipher == nil && !message.payload.isEmpty {
            throw .encryptionUnavailable
        }
        let pieces = fragmenter(checksum: control.contains(.checksum)).split(message.payload)
        var frames: [[UInt8]] = []
        for (index, piece) in pieces.enumerated() {
            var flags = control.subtracting([.fragment, .fromDevice])
            if index < pieces.count - 1 { flags.insert(.fragment) }
            frames.append(try seal(BluFiFrame(type: message.type, control: flags, sequence: 0, data: piece)))
        }
        return frames
    }

    /// The wire bytes of one frame, numbered with the next sequence number (the frame's own is ignored).
    public mutating func seal(_ frame: BluFiFrame) throws(BluFiError) -> [UInt8] {
        guard frame.data.count <= BluFiFrame.maximumDataLength else {
            throw .messageTooLong(byteCount: frame.data.count)
        }
        var frame = frame
        frame.sequence = nextSequence
        if direction == .deviceToPhone { frame.control.insert(.fromDevice) }
        var data = frame.data
        if frame.control.contains(.encrypted) && !data.isEmpty {
            guard var cipher else { throw .encryptionUnavailable }
            data = try cipher.encrypt(data, sequence: frame.sequence)
            self.cipher = cipher
        }
        var bytes = [frame.type.rawValue, frame.control.rawValue, frame.sequence, UInt8(data.count)] + data
        if frame.control.contains(.checksum) {
            let checksum = frame.checksum
            bytes += [UInt8(truncatingIfNeeded: checksum), UInt8(checksum >> 8)]
        }
        nextSequence &+= 1
        return bytes
    }

    private func fragmenter(checksum: Bool) -> BluFiFragmenter {
        switch direction {
        case .phoneToDevice: .phone(attMTU: attMTU, checksum: checksum)
        case .deviceToPhone: .device(attMTU: attMTU)
        }
    }
}
