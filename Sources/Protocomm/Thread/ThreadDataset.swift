/// A Thread active operational dataset: the MeshCoP TLVs `ot-ctl dataset active -x` prints as hex.
///
/// It holds the network key and the PSKc, so it is a secret: its description never shows the bytes,
/// and errors about it name positions, never characters.
public struct ThreadDataset: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The TLVs exactly as the device receives them in `CmdSetThreadConfig`.
    public let tlvs: [UInt8]

    /// OpenThread's `OT_OPERATIONAL_DATASET_MAX_LENGTH`: the device's buffer (`otOperationalDatasetTlvs`).
    public static let maximumLength = 254

    /// Checks the TLV structure: every TLV whole, no type twice, and the fields of fixed size at that size.
    public init(tlvs: [UInt8]) throws(ThreadDatasetError) {
        guard !tlvs.isEmpty else { throw .empty }
        guard tlvs.count <= Self.maximumLength else { throw .tooLong(byteCount: tlvs.count) }
        var seen = Set<UInt8>()
        var offset = 0
        while offset < tlvs.count {
            guard offset + 2 <= tlvs.count else { throw .truncatedTLV(offset: offset) }
            let type = tlvs[offset]
            let length = Int(tlvs[offset + 1])
            guard offset + 2 + length <= tlvs.count else { throw .truncatedTLV(offset: offset) }
            guard seen.insert(type).inserted else { throw .repeatedTLV(type: type) }
            if let allowed = ThreadDatasetTLV(rawValue: type)?.allowedLengths, !allowed.contains(length) {
                throw .invalidTLVLength(type: type, length: length)
            }
            offset += 2 + length
        }
        self.tlvs = tlvs
    }

    /// Parses the hex text of a dataset file: one run of hex digits (either case), with spaces, tabs and
    /// line ends (LF or CRLF) allowed only around it.
    public init(hexText bytes: [UInt8]) throws(ThreadDatasetError) {
        let isBlank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) })
        else { throw .empty }
        let digits = bytes[first...last]
        guard digits.count.isMultiple(of: 2) else { throw .oddDigitCount }
        guard digits.count / 2 <= Self.maximumLength else { throw .tooLong(byteCount: digits.count / 2) }
        var tlvs: [UInt8] = []
        tlvs.reserveCapacity(digits.count / 2)
        var high: UInt8?
        for (position, character) in digits.enumerated() {
            guard let nibble = Self.nibble(character) else { throw .notHex(position: position) }
            if let pending = high {
                tlvs.append(pending << 4 | nibble)
                high = nil
            } else {
                high = nibble
            }
        }
        try self.init(tlvs: tlvs)
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The value of the TLV of `type`, if the dataset has one.
    func value(of type: ThreadDatasetTLV) -> ArraySlice<UInt8>? {
        var offset = 0
        while offset + 2 <= tlvs.count {
            let length = Int(tlvs[offset + 1])
            if tlvs[offset] == type.rawValue { return tlvs[(offset + 2)..<(offset + 2 + length)] }
            offset += 2 + length
        }
        return nil
    }

    /// The network's public identity (name, PAN ID, extended PAN ID, channel), as far as the dataset has it.
    public var network: ThreadNetworkIdentity {
        ThreadNetworkIdentity(
            name: value(of: .networkName).flatMap { String(validating: $0, as: UTF8.self) },
            panID: value(of: .panID).map { UInt16($0[$0.startIndex]) << 8 | UInt16($0[$0.startIndex + 1]) },
            extendedPANID: value(of: .extendedPANID).map(Array.init),
            channel: value(of: .channel).map { UInt16($0[$0.startIndex + 1]) << 8 | UInt16($0[$0.startIndex + 2]) })
    }

    public var description: String { "ThreadDataset(\(tlvs.count) bytes, redacted)" }
    public var debugDescription: String { description }
}

/// The parts of a dataset that the network broadcasts anyway, fit to print.
public struct ThreadNetworkIdentity: Sendable, Hashable {
    public var name: String?
    public var panID: UInt16?
    public var extendedPANID: [UInt8]?
    public var channel: UInt16?

    public init(name: String?, panID: UInt16?, extendedPANID: [UInt8]?, channel: UInt16?) {
        self.name = name
        self.panID = panID
        self.extendedPANID = extendedPANID
        self.channel = channel
    }
}
