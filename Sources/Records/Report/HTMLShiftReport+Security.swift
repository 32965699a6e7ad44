/// The page's security audit: the line's security mix and the provisioned units it flags.
extension HTMLShiftReport {
    /// How many flagged units each list shows; the count says how many there are.
    static let flaggedUnitsShown = 20

    func security(_ report: ShiftReport) -> String {
        let mix = report.security
        guard !mix.rows.isEmpty else { return section("Security", none("No unit was provisioned.")) }
        let rows = mix.rows.map { row in
            let name = row.security?.text ?? "unrecorded"
            let key = "security:\(name)"
            let level = row.security.map { levelMark($0.level) } ?? "<td>\u{2013}</td>"
            return
                "<tr><td class=\"code\">\(name)</td><td>\(row.security?.summary ?? "recorded before it was kept")</td>"
                + level + cell("\(row.units)", checked: "\(key):units") + "</tr>"
        }
        let mixTable = table(
            "<th>Security</th><th>What it is</th><th>Level</th><th class=\"num\">Units</th>", rows)
        return section(
            "Security",
            mixTable
                + flagged(
                    mix.plaintext, checked: "plaintext",
                    sentence: "provisioned in plaintext: anyone in radio range could read their Wi-Fi password")
                + flagged(
                    mix.withoutProof, checked: "without-proof",
                    sentence: "provisioned without proof of possession: an impostor device could have taken the "
                        + "password"))
    }

    private func levelMark(_ level: SecurityLevel) -> String {
        let kind = level == .authenticated ? "ok" : "fail"
        return "<td class=\"code \(kind)\">\(level.rawValue)</td>"
    }

    private func flagged(_ units: [SecurityMix.FlaggedUnit], checked check: String, sentence: String) -> String {
        guard !units.isEmpty else { return "" }
        let shown = units.prefix(Self.flaggedUnitsShown).map { unit in
            "<li><span class=\"name\">\(HTMLText.shown(unit.deviceKey))</span> (\(HTMLText.shown(unit.station)), "
                + "\(unit.security.text))</li>"
        }
        let more = units.count > shown.count ? "<li>and \(units.count - shown.count) more</li>" : ""
        return "<p class=\"flag\"><span data-check=\"\(check)\">\(units.count)</span> "
            + "unit\(units.count == 1 ? "" : "s") \(sentence):</p><ul>\(shown.joined())\(more)</ul>"
    }
}
