/// Pieces of the Prometheus text exposition format (version 0.0.4), which OpenMetrics scrapers read too.
enum PrometheusText {
    /// `name{label="value",...} number`, label values escaped.
    static func sample(_ name: String, _ labels: [(String, String)], _ value: String) -> String {
        guard !labels.isEmpty else { return "\(name) \(value)\n" }
        let pairs = labels.map { "\($0.0)=\"\(labelValue($0.1))\"" }.joined(separator: ",")
        return "\(name){\(pairs)} \(value)\n"
    }

    /// The `# HELP` and `# TYPE` lines that open a metric family.
    static func family(_ name: String, type: String, help: String) -> String {
        "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// A label value as the format quotes it: backslash, double quote and line feed escaped.
    ///
    /// Values come from scanners and devices. The other control characters (a carriage return would end
    /// a line for some parsers) become U+FFFD, so every value stays on its sample's line.
    static func labelValue(_ text: String) -> String {
        text.replacingScalars { scalar in
            switch scalar {
            case "\\": "\\\\"
            case "\"": "\\\""
            case "\n": "\\n"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value): "\u{FFFD}"
            default: nil
            }
        }
    }

    /// A number as the format writes it: integers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : "\(value)"
    }
}
