/// JSON string literals: the one escaper behind every JSON text ztprov writes by hand.
///
/// Hand-written JSON exists where key order matters (the Zhiting requests byte for byte, export columns,
/// the console's JSON Lines, the emulated device's proto-ver reply) and JSONEncoder does not promise it;
/// all of them quote strings here.
public enum JSONText {
    /// `text` as a JSON string: quotes, backslashes and control characters escaped, the rest as UTF-8.
    public static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
