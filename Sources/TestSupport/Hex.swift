/// Hex text for test vectors: the form every reference document and capture uses.
extension Array where Element == UInt8 {
    /// Decodes hex digits, ignoring spaces, newlines and `|` separators as written in the references.
    ///
    /// Traps on anything else: a malformed vector is a bug in the test, not an input to handle.
    public init(hex: String) {
        let digits = hex.unicodeScalars.filter { !" \n\t|:".unicodeScalars.contains($0) }.map(Character.init)
        precondition(digits.count % 2 == 0, "odd number of hex digits in \(hex)")
        self = stride(from: 0, to: digits.count, by: 2).map { index in
            guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else {
                preconditionFailure("not hex: \(String(digits[index...index + 1])) in \(hex)")
            }
            return byte
        }
    }

    /// Lower-case hex without separators, as the references print bytes.
    public var hexString: String {
        map { byte in
            let digits = String(byte, radix: 16)
            return byte < 0x10 ? "0" + digits : digits
        }.joined()
    }
}
