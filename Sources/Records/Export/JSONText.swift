/// JSON string literals, written by hand so export keys keep their column order; the console's JSON
/// Lines quote with it too.
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
