import CryptoPrimitives
import Testing
import ZhitingLAN

@Suite struct ZhitingSessionKeyTests {
    @Test func randomKeyMapsBytesOntoTheIOSAlphabet() {
        var source = ScriptedRandomSource(Array(0..<16))
        #expect(ZhitingSessionKey.random(using: &source).bytes == Array("abcdefghijklmnop".utf8))
        var upper = ScriptedRandomSource(Array(26..<42))
        #expect(ZhitingSessionKey.random(using: &upper).bytes == Array("ABCDEFGHIJKLMNOP".utf8))
    }

    @Test func bytesThatWouldBiasTheAlphabetAreRedrawn() {
        var source = ScriptedRandomSource([248, 255] + Array(repeating: 61, count: 16))
        #expect(ZhitingSessionKey.random(using: &source).bytes == Array(repeating: UInt8(ascii: "9"), count: 16))
    }

    @Test func freshKeysDiffer() {
        var source = SystemRandomSource()
        let keys = (0..<8).map { _ in ZhitingSessionKey.random(using: &source) }
        #expect(Set(keys.map(\.bytes)).count == keys.count)
    }

    @Test(arguments: ["abcdefghijklmno", "abcdefghijklmnopq", "abcdefghijklmn-p", "abcdefghijklmnöp"])
    func textMustBeSixteenLettersOrDigits(text: String) {
        #expect(throws: ZhitingLANError.invalidSessionKey) { try ZhitingSessionKey(text) }
    }
}
