import Glibc
import StringEssentials
import Testing

@Suite struct StringEssentialsTests {
    @Test(
        arguments: [
            ([0x24, 0x0A, 0xC4, 0x00, 0xFF, 0x5B], "24:0a:c4:00:ff:5b"), ([0x01], "01"), ([], ""),
        ] as [([UInt8], String)])
    func colonSeparatedHex(bytes: [UInt8], text: String) {
        #expect(bytes.colonSeparatedHex == text)
        #expect(bytes[...].colonSeparatedHex == text)
    }

    @Test(arguments: [
        ("  a b \t", "a b", "a b"), ("\n x\n", "x", "\n x\n"), ("", "", ""), (" \t\n ", "", "\n"),
        ("\u{00A0}ü\u{2003}", "ü", "ü"), ("a", "a", "a"),
    ])
    func trimming(text: String, whitespace: String, spaces: String) {
        #expect(text.trimmingWhitespace() == whitespace)
        #expect(text.trimmingSpaces() == spaces)
        #expect(text[...].trimmingWhitespace() == whitespace)
    }

    @Test(arguments: [
        (0.0, 1, "0.0"), (93.75, 1, "93.8"), (0.25, 1, "0.2"), (1.25, 2, "1.25"), (12.0, 2, "12.00"),
        (-0.04, 1, "0.0"), (-1.06, 1, "-1.1"), (0.001, 2, "0.00"), (59.999, 2, "60.00"), (7.5, 0, "8"),
        (6.5, 0, "6"), (100, 1, "100.0"),
    ])
    func fixedPoint(value: Double, digits: Int, expected: String) {
        #expect(value.fixedPoint(fractionDigits: digits) == expected)
    }

    /// Every value with up to three decimals in a wide range matches the C library's `%.Nf`.
    @Test func fixedPointMatchesPrintfOnGeneratedValues() {
        var generator = SplitMix(seed: 0x5EED)
        for _ in 0..<2000 {
            let value = Double(Int64(generator.next() % 20_000_000) - 10_000_000) / 1000
            for digits in 0...3 {
                #expect(value.fixedPoint(fractionDigits: digits) == printf(value, digits), "\(value) \(digits)")
            }
        }
    }

    @Test func nonFiniteAndHugeValuesAreSpelledOut() {
        #expect(Double.infinity.fixedPoint(fractionDigits: 1) == "inf")
        #expect(Double.nan.fixedPoint(fractionDigits: 1) == "nan")
        #expect(1e300.fixedPoint(fractionDigits: 2) == 1e300.description)
    }

    @Test(arguments: [(7, 2, "07"), (0, 4, "0000"), (123, 2, "123"), (-5, 3, "-05"), (2024, 4, "2024")])
    func zeroPadded(value: Int, width: Int, expected: String) {
        #expect(value.zeroPadded(width: width) == expected)
    }

    @Test(arguments: [
        ("s3cr%40t", "s3cr@t"), ("%2f%2F", "//"), ("plain", "plain"), ("%C3%BC", "ü"), ("", ""),
    ])
    func percentDecoding(text: String, expected: String) {
        #expect(text.removingPercentEscapes == expected)
    }

    @Test(arguments: ["%", "%4", "%zz", "a%g0", "%FF", "%C3"])
    func malformedEscapesDecodeToNil(text: String) {
        #expect(text.removingPercentEscapes == nil)
    }

    private func printf(_ value: Double, _ digits: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        _ = withVaList([digits, value]) { vsnprintf(&buffer, buffer.count, "%.*f", $0) }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.hasPrefix("-") && text.dropFirst().allSatisfy { $0 == "0" || $0 == "." }
            ? String(text.dropFirst()) : text
    }
}

/// A small deterministic generator, so a failure names a value that reproduces.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
