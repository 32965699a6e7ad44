import JSONWriting
import Provisioning
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where a command's output goes, following the contract: human progress on stderr, and on stdout
/// either JSON Lines (`--json`) or the human result.
///
/// Every later command prints through this type, so the two streams stay consistent everywhere.
struct Console: Sendable {
    enum Stream: Sendable {
        case standardOutput
        case standardError
    }

    enum Verbosity: Sendable, Comparable {
        case quiet
        case normal
        case verbose
    }

    let json: Bool
    let verbosity: Verbosity
    /// Colours, symbols, elapsed time and a closing summary only when stderr is a terminal; pipes and
    /// logs get plain lines, so they stay the same from run to run.
    let styled: Bool
    /// Whether stdout is the terminal stderr is: the closing summary then shows the result, and stdout does
    /// not repeat it.
    let sharedTerminal: Bool
    /// Time since the command started; injected so tests need no real clock.
    private let elapsed: @Sendable () -> Duration
    private let summary = RunSummary()
    private let write: @Sendable (Stream, String) -> Void
    /// Held from an event's stamp to its write, so events of concurrent tasks (a batch's lanes) leave in the
    /// order of their `elapsed_ms`.
    private let eventOrder = EventOrder()

    init(
        json: Bool, verbosity: Verbosity, styled: Bool, sharedTerminal: Bool = false,
        elapsed: @escaping @Sendable () -> Duration = { .zero },
        write: @escaping @Sendable (Stream, String) -> Void
    ) {
        self.json = json
        self.verbosity = verbosity
        self.styled = styled
        self.sharedTerminal = styled && sharedTerminal
        self.elapsed = elapsed
        self.write = write
    }

    /// A console on the process's stdout and stderr, as `options` ask.
    init(_ options: OutputOptions) {
        let verbosity: Verbosity = options.quiet ? .quiet : options.verbose ? .verbose : .normal
        let start = ContinuousClock.now
        self.init(
            json: options.json, verbosity: verbosity, styled: isatty(STDERR_FILENO) == 1,
            sharedTerminal: isatty(STDOUT_FILENO) == 1, elapsed: { .now - start }, write: Self.standardWrite)
    }

    /// A progress line on stderr; `detail` lines only with `--verbose`.
    func progress(_ text: String, detail: Bool = false) {
        guard verbosity > .quiet, !detail || verbosity == .verbose else { return }
        write(.standardError, (styled ? "\u{1B}[2m\(clock) ·\u{1B}[0m " : "") + TerminalText.printable(text) + "\n")
    }

    /// One line of the log (swift-log), on stderr; the handler's level decides which lines come.
    func log(_ text: String) {
        let text = TerminalText.printable(text)
        write(.standardError, (styled ? "\u{1B}[2m\(clock) \(text)\u{1B}[0m" : text) + "\n")
    }

    /// A step that succeeded, on stderr.
    func success(_ text: String) {
        guard verbosity > .quiet else { return }
        write(
            .standardError,
            (styled ? "\u{1B}[2m\(clock)\u{1B}[0m \u{1B}[32m✓\u{1B}[0m " : "") + TerminalText.printable(text) + "\n")
    }

    /// A problem that does not stop the command, on stderr even with `--quiet`.
    func warning(_ text: String) {
        let label = styled ? "\u{1B}[2m\(clock)\u{1B}[0m \u{1B}[33mwarning:\u{1B}[0m " : "warning: "
        write(.standardError, label + TerminalText.printable(text) + "\n")
    }

    /// Something only a person at the device can do (press its button), on stderr even with `--quiet`.
    func actionNeeded(_ text: String) {
        let label = styled ? "\u{1B}[2m\(clock)\u{1B}[0m \u{1B}[1;36maction:\u{1B}[0m " : "action: "
        write(.standardError, label + TerminalText.printable(text) + "\n")
    }

    /// One `{"event": name, "elapsed_ms": …, …}` line on stdout, with `--json` only; `elapsed_ms`
    /// counts monotonic milliseconds since the command started, so scripts see where time goes.
    func event(_ name: String, _ fields: [JSONField] = []) {
        guard json else { return }
        eventOrder.lock.withLock { _ in
            let stamp = [
                JSONField("event", .string(name)), JSONField("elapsed_ms", .int(Self.milliseconds(elapsed()))),
            ]
            write(.standardOutput, JSONValue.object(stamp + fields).serialized + "\n")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    /// The human result on stdout, without `--json` only; a table's tabs and line breaks stay.
    func output(_ text: String) {
        guard !json else { return }
        write(.standardOutput, TerminalText.lines(text) + "\n")
    }

    /// What the command achieved, on stdout like ``output(_:)``; on a terminal the closing summary says it,
    /// after the progress lines that would otherwise bury it, and stdout only where it is not that terminal.
    func result(_ text: String) {
        let text = TerminalText.printable(text)
        if !(showsSummary && sharedTerminal) { output(text) }
        summary.record(text)
    }

    /// What the person can do next (open a URL, run a command), said once after the closing summary.
    func next(_ text: String) {
        summary.recordNext(TerminalText.printable(text))
    }

    /// The final line of a successful command: `{"event":"result","ok":true,"code":"ok",…}`, and on a
    /// terminal `Done in 3.4s: <results>` on stderr; then each next step as `next: …`.
    func succeeded(_ fields: [JSONField]) {
        if showsSummary {
            let total = elapsed()
            let line = "\u{1B}[2m\(ElapsedTime(total).column)\u{1B}[0m \u{1B}[1m\(summary.line(after: total))\u{1B}[0m"
            write(.standardError, line + "\n")
        }
        if verbosity > .quiet {
            let label = styled ? "\u{1B}[1;36mnext:\u{1B}[0m " : "next: "
            for step in summary.nextSteps { write(.standardError, label + step + "\n") }
        }
        event("result", [JSONField("ok", true), JSONField("code", "ok")] + fields)
    }

    /// Whether a successful run ends with the `Done in …` line.
    private var showsSummary: Bool { styled && verbosity > .quiet }

    /// `error[CODE]: message` and `hint: …` on stderr (plus the detail with `--verbose`), and the
    /// failed result on stdout with `--json`.
    func failed(_ error: ProvisioningError) {
        let label = styled ? "\u{1B}[31merror[\(error.code)]\u{1B}[0m" : "error[\(error.code)]"
        var text = "\(label): \(TerminalText.printable(error.message))\nhint: \(TerminalText.printable(error.hint))\n"
        if verbosity == .verbose, let detail = error.detail { text += "detail: \(TerminalText.printable(detail))\n" }
        write(.standardError, text)
        var fields = [
            JSONField("ok", false), JSONField("code", .string(error.code.rawValue)),
            JSONField("exit_status", .int(Int(error.exitStatus.rawValue))),
            JSONField("message", .string(error.message)), JSONField("hint", .string(error.hint)),
        ]
        if let alias = error.code.formerSpelling { fields.append(JSONField("code_alias", .string(alias))) }
        if let heard = error.heardNetworks { fields.append(HeardNetworkText.field(heard)) }
        event("result", fields)
    }

    /// `[ 1.2s]`, the elapsed-time column of terminal lines.
    private var clock: String { ElapsedTime(elapsed()).column }

    private static let standardWrite: @Sendable (Stream, String) -> Void = { stream, text in
        LiveRegion.shared.write(text, to: stream)
    }

    /// Writes to the process's stdout or stderr unbuffered, so the two streams interleave in order; a
    /// failed stdout write is kept for ``StandardOutputHealth``. Nothing goes to a terminal that hung up.
    static func write(_ text: String, to stream: Stream) {
        let descriptor = stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO
        guard !InterruptSignal.isGoneTerminal(descriptor) else { return }
        var bytes = ArraySlice(Array(text.utf8))
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                if stream == .standardOutput { StandardOutputHealth.recordFailure(written < 0 ? errno : EIO) }
                return
            }
            bytes = bytes.dropFirst(max(0, written))
        }
    }
}

/// The lock that keeps a console's events in the order of their stamps, shared by the console's copies.
private final class EventOrder: Sendable {
    let lock = Mutex(())
}
