/// The data of RPC frames: a list of byte strings, each preceded by its one-byte length.
///
/// Strings are UTF-8 by the specification; they stay bytes here so an SSID is sent exactly as given.
public enum ImprovStringList {
    /// Length-prefixed strings back to back; each string must fit its length byte.
    public static func encode(_ strings: [[UInt8]]) throws(ImprovError) -> [UInt8] {
        var data: [UInt8] = []
        for string in strings {
            guard string.count <= 255 else { throw .dataTooLong(string.count) }
            data.append(UInt8(string.count))
            data += string
        }
        return data
    }

    /// Splits `data` into its strings; the last length must end exactly at the end of the data.
    public static func decode(_ data: [UInt8]) throws(ImprovError) -> [[UInt8]] {
        var strings: [[UInt8]] = []
        var position = 0
        while position < data.count {
            let length = Int(data[position])
            let start = position + 1
            guard start + length <= data.count else { throw .malformedStringList }
            strings.append(Array(data[start..<(start + length)]))
            position = start + length
        }
        return strings
    }

    /// Strict UTF-8: a device that sends other bytes is not speaking Improv.
    static func text(_ bytes: [UInt8]) throws(ImprovError) -> String {
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return text
    }
}
