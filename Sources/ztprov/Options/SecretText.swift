/// The checks every secret passes whatever its source: text, exactly, and not empty.
///
/// A secret with invalid UTF-8 or a NUL would be sent altered (repaired, or cut at the NUL by C
/// code), and the device would then refuse a password that looks right; an empty one is almost
/// always a file or variable left blank by mistake.
enum SecretText {
    /// No password, PoP or token comes near this.
    static let maximumLength = 4096

    enum Problem: Error, Equatable {
        case empty
        case tooLong
        case notUTF8
        case containsNUL
    }

    /// The first line of a secret file (without its `\n` or `\r\n`), checked.
    static func firstLine(of bytes: [UInt8]) -> Result<String, Problem> {
        var line = bytes.prefix { $0 != 0x0A }
        if line.last == 0x0D { line = line.dropLast() }
        return checked(Array(line))
    }

    /// `bytes` as a secret, or why they cannot be one.
    static func checked(_ bytes: [UInt8]) -> Result<String, Problem> {
        if bytes.isEmpty { return .failure(.empty) }
        if bytes.count > maximumLength { return .failure(.tooLong) }
        if bytes.contains(0) { return .failure(.containsNUL) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.notUTF8) }
        return .success(text)
    }

    /// Text that already went through a decoder (the environment, a prompt): decoders put U+FFFD where
    /// bytes were not UTF-8, so that character is taken as a sign the original was not text.
    static func checked(_ text: String) -> Result<String, Problem> {
        if text.unicodeScalars.contains("\u{FFFD}") { return .failure(.notUTF8) }
        return checked(Array(text.utf8))
    }
}
