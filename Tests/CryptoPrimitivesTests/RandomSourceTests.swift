import CryptoPrimitives
import Testing

@Suite struct RandomSourceTests {
    @Test func seededSourceReplaysAndCopiesForkTheStream() {
        var first = SeededRandomSource(seed: [1, 2, 3])
        var second = SeededRandomSource(seed: [1, 2, 3])
        #expect(first.bytes(5) + first.bytes(40) == second.bytes(45))
        var fork = first
        #expect(fork.bytes(16) == first.bytes(16))
        var other = SeededRandomSource(seed: [1, 2, 4])
        #expect(other.bytes(16) != SeededRandomSource(seed: [1, 2, 3]).bytesOnce(16))
    }

    @Test func scriptedSourceHandsOutItsScriptInOrder() {
        var source = ScriptedRandomSource([1, 2, 3, 4, 5])
        #expect(source.bytes(2) == [1, 2])
        #expect(source.bytes(3) == [3, 4, 5])
    }

    @Test func systemSourceIsNotConstant() {
        var source = SystemRandomSource()
        let samples = (0..<4).map { _ in source.bytes(16) }
        #expect(Set(samples).count == 4)
        #expect(samples.allSatisfy { $0.count == 16 })
    }
}

extension SeededRandomSource {
    fileprivate func bytesOnce(_ count: Int) -> [UInt8] {
        var copy = self
        return copy.bytes(count)
    }
}
