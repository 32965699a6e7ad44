import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Lines kept at the bottom of the terminal and redrawn in place, under everything else written to stderr.
///
/// While a region is shown, each stderr write first erases it, then writes, then draws it again, so log
/// lines scroll up above it and are never torn. The process has one stderr, hence one shared region.
final class LiveRegion: Sendable {
    static let shared = LiveRegion()

    private struct State {
        var lines: [String] = []
        /// The terminal width the lines were drawn at, to count the rows they took after a resize.
        var drawnWidth = 0
        var active = false
    }

    private let state = Mutex(State())

    /// Writes `text` to `stream`, keeping the region below it when `stream` is stderr.
    func write(_ text: String, to stream: Console.Stream) {
        guard stream == .standardError else { return Console.write(text, to: stream) }
        state.withLock { state in
            guard state.active else { return Console.write(text, to: stream) }
            let width = Self.terminalWidth()
            Console.write(Self.erase(state.lines, drawnAt: state.drawnWidth, now: width) + text, to: .standardError)
            // The terminal may have narrowed since the lines were made: cut them rather than let them wrap.
            state.lines = state.lines.map { $0.clipped(to: max(1, width - 1)) }
            Console.write(Self.draw(state.lines), to: .standardError)
            state.drawnWidth = width
        }
    }

    /// Shows `lines` in place of what the region showed; the first call starts the region.
    func show(_ lines: [String]) {
        let lines = lines.map { TerminalText.printable($0) }
        state.withLock { state in
            let width = Self.terminalWidth()
            let erase = state.active ? Self.erase(state.lines, drawnAt: state.drawnWidth, now: width) : ""
            Console.write(erase + Self.draw(lines), to: .standardError)
            state = State(lines: lines, drawnWidth: width, active: true)
        }
    }

    /// Erases the region and ends it; later writes go straight through.
    func end() {
        state.withLock { state in
            guard state.active else { return }
            Console.write(
                Self.erase(state.lines, drawnAt: state.drawnWidth, now: Self.terminalWidth()), to: .standardError)
            state = State()
        }
    }

    /// The terminal's width in columns, read each time so a resize applies at the next redraw; 80 when
    /// stderr is not a terminal.
    static func terminalWidth() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    static func draw(_ lines: [String]) -> String {
        lines.map { $0 + "\n" }.joined()
    }

    /// Moves back to the region's first row and clears to the end of the screen. A line drawn at one width
    /// takes more rows once the terminal is narrower, so rows are counted at the current width.
    static func erase(_ lines: [String], drawnAt drawnWidth: Int, now width: Int) -> String {
        let rows = lines.reduce(0) { rows, line in
            rows + max(1, (min(line.count, max(1, drawnWidth)) + width - 1) / max(1, width))
        }
        return rows == 0 ? "" : "\r\u{1B}[\(rows)A\u{1B}[J"
    }
}

extension String {
    /// At most `width` characters, the last one `…` when cut.
    func clipped(to width: Int) -> String {
        guard count > width else { return self }
        return width <= 1 ? String(prefix(width)) : String(prefix(width - 1)) + "…"
    }
}
