/// What `ble`'s scan shows at the bottom of the terminal: a countdown while no device matched, a line while
/// it listens for others, then the device picker. Each is drawn in the ``LiveRegion`` only when it changed.
struct ScanLiveView {
    private var drawn: [String] = []
    private let region: LiveRegion

    init(region: LiveRegion = .shared) {
        self.region = region
    }

    /// `Waiting for a device… 12 s left (--scan-timeout)`.
    mutating func waiting(left: Duration) {
        show([Self.waitingLine(left: left)])
    }

    mutating func listening(heard count: Int) {
        show(["Heard \(count) \(count == 1 ? "device" : "devices"); listening for others…"])
    }

    mutating func picker(_ picker: DevicePicker) {
        show(picker.frame(width: LiveRegion.terminalWidth()))
    }

    /// Erases what was drawn; later lines go to the terminal as usual.
    mutating func end() {
        guard !drawn.isEmpty else { return }
        region.end()
        drawn = []
    }

    static func waitingLine(left: Duration) -> String {
        "Waiting for a device… \(max(0, Int((left / .seconds(1)).rounded(.up)))) s left (--scan-timeout)"
    }

    private mutating func show(_ lines: [String]) {
        guard lines != drawn else { return }
        region.show(lines)
        drawn = lines
    }
}
