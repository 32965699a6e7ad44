import Foundation

/// What the test sources say about error codes, gathered in one pass over their bytes: the names used as
/// `.caseName` (followed by `)`, `,`, a space or a line end) and the spellings written as `"code"`,
/// `[code]` or `'code'`. One pass, so a check of every code against two megabytes of tests takes a
/// moment instead of holding a thread of the shared pool for many seconds.
struct TestSourceMentions {
    private(set) var caseNames: Set<String> = []
    private(set) var quotedCodes: Set<String> = []

    mutating func read(_ source: Data) {
        let bytes = [UInt8](source)
        var index = 0
        while index < bytes.count {
            let opening = bytes[index]
            index += 1
            if opening == UInt8(ascii: ".") {
                let end = Self.run(of: Self.isIdentifier, in: bytes, from: index)
                if end > index, end < bytes.count, Self.endsCaseName(bytes[end]) {
                    caseNames.insert(String(decoding: bytes[index..<end], as: UTF8.self))
                }
            } else if let closing = Self.closing(of: opening) {
                let end = Self.run(of: Self.isCodeCharacter, in: bytes, from: index)
                if end > index, end < bytes.count, bytes[end] == closing {
                    quotedCodes.insert(String(decoding: bytes[index..<end], as: UTF8.self))
                }
            }
        }
    }

    private static func run(of matches: (UInt8) -> Bool, in bytes: [UInt8], from start: Int) -> Int {
        var end = start
        while end < bytes.count, matches(bytes[end]) { end += 1 }
        return end
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        isCodeLetter(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func isCodeCharacter(_ byte: UInt8) -> Bool {
        isCodeLetter(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }

    private static func isCodeLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func endsCaseName(_ byte: UInt8) -> Bool {
        [UInt8(ascii: ")"), UInt8(ascii: ","), UInt8(ascii: " "), UInt8(ascii: "\n")].contains(byte)
    }

    private static func closing(of opening: UInt8) -> UInt8? {
        switch opening {
        case UInt8(ascii: "\""): UInt8(ascii: "\"")
        case UInt8(ascii: "["): UInt8(ascii: "]")
        case UInt8(ascii: "'"): UInt8(ascii: "'")
        default: nil
        }
    }
}
