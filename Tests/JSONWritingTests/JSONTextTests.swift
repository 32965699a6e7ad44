import Foundation
import JSONWriting
import Testing

@Suite struct JSONTextTests {
    @Test func escapesWhatJSONRequiresAndNothingElse() {
        #expect(JSONText.quoted("a\"b\\c") == #""a\"b\\c""#)
        #expect(JSONText.quoted("\n\r\t") == #""\n\r\t""#)
        #expect(JSONText.quoted("\u{0}\u{1F}") == #""\u0000\u001f""#)
        #expect(JSONText.quoted("é/中🙂") == "\"é/中🙂\"")
    }

    /// Generated strings of every kind of scalar (controls, quotes, astral planes) survive a round trip
    /// through an independent parser, Foundation's.
    @Test func generatedStringsRoundTripThroughFoundationsParser() throws {
        var generator = SystemRandomNumberGenerator()
        let interesting: [Unicode.Scalar] = ["\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{7F}", "\u{2028}", "🙂"]
        for _ in 0..<500 {
            var text = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...40, using: &generator) {
                let scalar =
                    Bool.random(using: &generator)
                    ? interesting.randomElement(using: &generator)!
                    : Unicode.Scalar(UInt32.random(in: 0...0xD7FF, using: &generator))!
                text.append(scalar)
            }
            let original = String(text)
            let parsed = try JSONSerialization.jsonObject(
                with: Data(JSONText.quoted(original).utf8), options: .fragmentsAllowed)
            #expect(parsed as? String == original, "\(original.debugDescription)")
        }
    }
}
