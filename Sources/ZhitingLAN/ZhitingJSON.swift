internal import JSONWriting

/// A JSON value whose objects keep their key order, serialised compactly.
///
/// Requests must come out byte for byte as the apps send them (`method`, `params`, `id`), and
/// JSONEncoder does not promise key order, so the core writes its few JSON texts itself.
enum ZhitingJSON: Sendable {
    case string(String)
    case int(Int)
    case array([ZhitingJSON])
    case object([(key: String, value: ZhitingJSON)])

    /// Compact UTF-8 text: no spaces, no newline.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .string(let text):
            Self.writeString(text, to: &output)
        case .int(let number):
            output += Array(String(number).utf8)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, to: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output += Array(JSONText.quoted(text).utf8)
    }
}
