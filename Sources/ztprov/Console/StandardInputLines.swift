#if canImport(Glibc)
    import Glibc
#endif

/// Lines read from stdin with `read(2)`, waiting on ``InterruptSignal``'s descriptor too.
///
/// Not stdio's `readLine`: `getline` holds stdin's lock while it waits, and the exit path's flush of
/// every stream then waits for the next line or the end of input (a scanner's pipe never ends). This
/// reader holds no lock while it waits and stops as soon as a signal arrived.
struct StandardInputLines {
    private var buffered: [UInt8] = []
    private var ended = false

    /// The next line without its `\n` (and a `\r` before it), nil at the end of input, on a read error,
    /// or once a signal arrived (a terminal that hung up counts as SIGHUP). Bytes that are not UTF-8 come back as U+FFFD.
    mutating func next() -> String? {
        while true {
            if let newline = buffered.firstIndex(of: 0x0A) {
                var line = buffered[..<newline]
                buffered.removeSubrange(...newline)
                if line.last == 0x0D { line = line.dropLast() }
                return String(decoding: line, as: UTF8.self)
            }
            guard !ended else {
                guard !buffered.isEmpty else { return nil }
                defer { buffered.removeAll() }
                return String(decoding: buffered, as: UTF8.self)
            }
            ended = !readMore()
        }
    }

    /// Appends what stdin has; false at its end, on an error, or when a signal arrived.
    private mutating func readMore() -> Bool {
        while InterruptSignal.waitForInput(on: STDIN_FILENO) {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else {
                // A terminal that hung up reads as its end; it is a hang-up, not the operator's Ctrl-D.
                var settings = termios()
                if tcgetattr(STDIN_FILENO, &settings) != 0, errno == EIO { InterruptSignal.hangUp() }
                return false
            }
            buffered += chunk[..<count]
            return true
        }
        return false
    }
}
