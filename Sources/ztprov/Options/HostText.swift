/// Exact checks for the hosts and ports a user names for devices to connect to: what reaches a
/// device's flash must be a name it can resolve, not whatever was typed.
enum HostText {
    /// A DNS name or dotted IPv4 address: 1 to 253 bytes of letters, digits, `-` and `.`, no empty
    /// label, no label over 63 bytes, no label starting or ending with `-`.
    static func isHostName(_ text: some StringProtocol) -> Bool {
        guard (1...253).contains(text.utf8.count) else { return false }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// A TCP or UDP port a peer can be reached on: 1 to 65535, digits only.
    static func port(_ text: some StringProtocol) -> Int? {
        guard (1...5).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(text),
            (1...65535).contains(port)
        else { return nil }
        return port
    }

    /// A network interface name as Linux takes it: 1 to 15 bytes, no `/`, no white space or control
    /// character, not `.` or `..`.
    static func isInterfaceName(_ text: String) -> Bool {
        (1...15).contains(text.utf8.count) && text != "." && text != ".."
            && text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "/" && $0.isASCII }
    }

    /// `HOST:PORT` with both parts valid.
    static func isHostAndPort(_ text: String) -> Bool {
        guard let colon = text.lastIndex(of: ":") else { return false }
        return isHostName(text[..<colon]) && port(text[text.index(after: colon)...]) != nil
    }
}
