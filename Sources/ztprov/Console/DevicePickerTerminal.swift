import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal side of the device picker: stdin taken out of line mode and echo (Ctrl-C still signals, so
/// ``InterruptSignal`` cancels the command as anywhere else) until ``stop()`` puts it back. ``readKeys(_:)``
/// blocks, so it runs on a thread of its own (``OwnThread``): no thread of Swift's shared pool waits for a
/// person.
final class DevicePickerTerminal: Sendable {
    private let saved: termios
    /// Written once by ``stop()`` to wake ``readKeys(_:)``; closed when the last user let go.
    private let stopPipe: (read: Int32, write: Int32)
    private let stopped = Atomic<Bool>(false)

    /// Whether a person can be asked: a terminal to read keys from and to draw on, and no `--json`.
    static func available(to console: Console) -> Bool {
        !console.json && isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }

    /// Puts stdin in key mode; nil when the terminal or a pipe cannot be had.
    static func start() -> DevicePickerTerminal? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var keyMode = saved
        keyMode.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &keyMode.c_cc) { characters in
            characters[Int(VMIN)] = 1
            characters[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &keyMode)
        return DevicePickerTerminal(saved: saved, stopPipe: (ends[0], ends[1]))
    }

    private init(saved: termios, stopPipe: (read: Int32, write: Int32)) {
        self.saved = saved
        self.stopPipe = stopPipe
    }

    deinit {
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Hands each read's bytes to `keys` until ``stop()``, the end of input, or a signal.
    func readKeys(_ keys: @Sendable ([UInt8]) -> Void) {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: InterruptSignal.arrival, events: Int16(POLLIN), revents: 0),
        ]
        while true {
            let ready = poll(&descriptors, nfds_t(descriptors.count), -1)
            if ready < 0, errno == EINTR { continue }
            guard ready > 0, descriptors[1].revents == 0, descriptors[2].revents == 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 64)
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR || errno == EAGAIN { continue }
            guard count > 0 else { return }
            keys(Array(chunk[..<count]))
        }
    }

    /// Wakes ``readKeys(_:)`` and puts the terminal back as it was; once.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        var saved = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}
