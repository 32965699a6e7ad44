import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The terminal side of the device picker: stdin taken out of line mode and echo (Ctrl-C still signals, so
/// ``InterruptSignal`` cancels the command as anywhere else), keys read on a thread of their own so no
/// thread of Swift's shared pool waits for a person, and the terminal put back by ``stop()``.
final class DevicePickerTerminal: Sendable {
    private let saved: termios
    /// Written once by ``stop()`` to wake the reading thread.
    private let stopPipe: (read: Int32, write: Int32)
    private let reader: pthread_t
    private let stopped = Atomic<Bool>(false)

    /// Whether a person can be asked: a terminal to read keys from and to draw on, and no `--json`.
    static func available(to console: Console) -> Bool {
        !console.json && isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1
    }

    /// Puts stdin in key mode and hands each read's bytes to `keys`, from a thread of its own, until
    /// ``stop()``, the end of input, or a signal; nil when the terminal or the thread cannot be had.
    static func start(_ keys: @escaping @Sendable ([UInt8]) -> Void) -> DevicePickerTerminal? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var keyMode = saved
        keyMode.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &keyMode.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(STDIN_FILENO, TCSANOW, &keyMode)
        let work = Unmanaged.passRetained(KeyReading(stop: ends[0], keys: keys)).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<KeyReading>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, work)
        guard status == 0 else {
            Unmanaged<KeyReading>.fromOpaque(work).release()
            tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            close(ends[0])
            close(ends[1])
            return nil
        }
        return DevicePickerTerminal(saved: saved, stopPipe: (ends[0], ends[1]), reader: thread)
    }

    private init(saved: termios, stopPipe: (read: Int32, write: Int32), reader: pthread_t) {
        self.saved = saved
        self.stopPipe = stopPipe
        self.reader = reader
    }

    /// Wakes the reading thread, waits the moment it takes to end, and puts the terminal back as it was.
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        pthread_join(reader, nil)
        var saved = saved
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        close(stopPipe.read)
        close(stopPipe.write)
    }
}

/// The reading thread's loop, boxed to cross `pthread_create`.
private final class KeyReading: Sendable {
    let stop: Int32
    let keys: @Sendable ([UInt8]) -> Void

    init(stop: Int32, keys: @escaping @Sendable ([UInt8]) -> Void) {
        self.stop = stop
        self.keys = keys
    }

    func run() {
        var descriptors = [
            pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
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
}
