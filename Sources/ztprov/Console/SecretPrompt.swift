#if canImport(Glibc)
    import Glibc
#endif

/// Asks for a secret on the controlling terminal with echo off.
enum SecretPrompt {
    /// The typed line, or nil when there is no terminal to ask (scripts, CI, pipes).
    static func ask(_ label: String) -> String? {
        guard isatty(STDIN_FILENO) == 1, let line = getpass(label) else { return nil }
        return String(cString: line)
    }
}
