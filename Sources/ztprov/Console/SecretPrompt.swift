#if canImport(Glibc)
    import Glibc
#endif

/// Asks for a secret on the controlling terminal with echo off.
///
/// Not `getpass`: it restarts its read after Ctrl-C and would sit at the prompt until Enter, and it
/// leaves echo off if the process then ends. This waits on `/dev/tty` and on ``InterruptSignal``'s
/// descriptor together, gives up as soon as a signal arrived, and always puts the terminal back.
enum SecretPrompt {
    /// Bytes kept of a line; one more than any secret may have, so an overlong line is refused as such.
    static let maximumLength = SecretText.maximumLength + 1

    /// The typed line, or nil when there is no terminal to ask (scripts, CI, pipes) or Ctrl-C was pressed.
    /// Bytes that are not UTF-8 come back as U+FFFD, which the secret checks refuse.
    static func ask(_ label: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        var saved = termios()
        guard tcgetattr(terminal, &saved) == 0 else { return nil }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(terminal, TCSAFLUSH, &silent)
        defer {
            tcsetattr(terminal, TCSAFLUSH, &saved)
            _ = write(terminal, "\n", 1)
        }
        _ = label.withCString { write(terminal, $0, strlen($0)) }
        return readLine(from: terminal).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The line typed, or nil at the end of input or as soon as a signal arrived: both descriptors are
    /// waited on together.
    private static func readLine(from terminal: Int32) -> [UInt8]? {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            guard InterruptSignal.waitForInput(on: terminal), read(terminal, &byte, 1) == 1 else { return nil }
            if byte == 0x0A || byte == 0x0D { return line }
            if line.count < maximumLength { line.append(byte) }
        }
    }
}
