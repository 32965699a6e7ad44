/// Why bytes are not a usable Thread dataset. No case carries dataset content: positions and lengths only.
public enum ThreadDatasetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing but blanks.
    case empty
    /// An odd number of hex digits: a digit is missing or extra.
    case oddDigitCount
    /// The character at `position` (counted from the first digit, from 0) is not a hex digit.
    case notHex(position: Int)
    /// More than ``ThreadDataset/maximumLength`` bytes.
    case tooLong(byteCount: Int)
    /// The TLV starting at byte `offset` runs past the end.
    case truncatedTLV(offset: Int)
    /// A TLV type appears twice.
    case repeatedTLV(type: UInt8)
    /// A TLV of fixed size has another length.
    case invalidTLVLength(type: UInt8, length: Int)

    public var description: String {
        switch self {
        case .empty: "it holds no hex digits"
        case .oddDigitCount: "it has an odd number of hex digits"
        case .notHex(let position): "character \(position + 1) of the hex text is not a hex digit"
        case .tooLong(let count):
            "it is \(count) bytes long; a dataset has at most \(ThreadDataset.maximumLength)"
        case .truncatedTLV(let offset): "the TLV at byte \(offset) runs past the end"
        case .repeatedTLV(let type): "TLV type \(type) appears twice"
        case .invalidTLVLength(let type, let length):
            "TLV type \(type) has \(length) value bytes, a size it cannot have"
        }
    }
}
