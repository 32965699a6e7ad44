import Provisioning

/// The list `ble` shows when several devices match on a terminal: strongest first, updated while the scan
/// goes on, one row selected. Pure: candidates and keys in, the chosen device and lines to draw out.
struct DevicePicker: Sendable, Equatable {
    /// The rows, strongest first.
    private(set) var candidates: [BLECandidate] = []
    /// The selected row's address: the selection follows its device when the order changes.
    private(set) var selected: String?

    init(_ candidates: [BLECandidate] = []) {
        update(candidates)
    }

    /// Takes in the devices heard so far; the selection stays on its device.
    mutating func update(_ heard: [BLECandidate]) {
        candidates = BLEDeviceChoice.ranked(heard)
        if selected == nil || !candidates.contains(where: { $0.address == selected }) {
            selected = candidates.first?.address
        }
    }

    /// Acts on one key; returns the device once one is chosen (Enter on the selection, or its number).
    mutating func press(_ key: PickerKey) -> BLECandidate? {
        let index = candidates.firstIndex { $0.address == selected } ?? 0
        switch key {
        case .up:
            if index > 0 { selected = candidates[index - 1].address }
        case .down:
            if index + 1 < candidates.count { selected = candidates[index + 1].address }
        case .enter:
            return candidates.first { $0.address == selected }
        case .digit(let number):
            guard candidates.indices.contains(number - 1) else { return nil }
            selected = candidates[number - 1].address
            return candidates[number - 1]
        }
        return nil
    }

    /// Device names are cut to this many characters in a row.
    static let nameWidth = 24

    /// The lines to draw, none longer than `width` characters; device-supplied text made printable first,
    /// so a name holding escape sequences or bidirectional marks shows as text and cannot shift the columns.
    func frame(width: Int) -> [String] {
        let names = candidates.map {
            BLECandidate.shortened(TerminalText.printable($0.name ?? "unnamed"), to: Self.nameWidth)
        }
        let nameColumn = names.map(\.count).max() ?? 0
        var lines = [
            "\(candidates.count) devices match. Choose with ↑/↓ and Enter, or type its number; Ctrl-C quits."
        ]
        for (index, candidate) in candidates.enumerated() {
            let marker = candidate.address == selected ? ">" : " "
            let rssi = candidate.rssi.map { "\($0) dBm" } ?? "-"
            let cells = [
                "\(marker) \(index + 1)", names[index] + String(repeating: " ", count: nameColumn - names[index].count),
                candidate.address, rssi + String(repeating: " ", count: max(0, 8 - rssi.count)),
                candidate.advertisedProtocol?.rawValue ?? "-", TerminalText.printable(candidate.state ?? ""),
            ]
            lines.append(cells.joined(separator: "  ").trimmingSuffixSpaces())
        }
        return lines.map { $0.clipped(to: max(1, width - 1)) }
    }
}

extension String {
    fileprivate func trimmingSuffixSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
