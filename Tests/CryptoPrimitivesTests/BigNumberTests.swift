import CryptoPrimitives
import Testing

/// Expected values computed independently with Python's arbitrary-precision integers.
@Suite struct BigNumberTests {
    private let modulus = BigNumber(1_000_003)

    @Test func modularPowerMatchesPython() {
        // pow(2, 100, 1000003) == 253109
        #expect(BigNumber(2).power(BigNumber(100), modulus: modulus) == BigNumber(253_109))
    }

    @Test func modularArithmetic() {
        #expect(BigNumber(999_999).adding(BigNumber(10), modulus: modulus) == BigNumber(6))
        #expect(BigNumber(3).subtracting(BigNumber(5), modulus: modulus) == BigNumber(1_000_001))
        #expect(BigNumber(123_456).multiplied(by: BigNumber(654_321), modulus: modulus) == BigNumber(611_039))
        #expect(BigNumber(2_000_009).reduced(modulus: modulus) == BigNumber(3))
    }

    @Test func plainArithmeticGrowsPastSixtyFourBits() {
        let big = BigNumber(UInt64.max) * BigNumber(UInt64.max) + BigNumber(1)
        // (2^64 - 1)^2 + 1 == 2^128 - 2^65 + 2
        #expect(big.magnitude == [UInt8](repeating: 0xFF, count: 7) + [0xFE] + [UInt8](repeating: 0, count: 7) + [2])
    }

    @Test func byteFormsStripAndPad() {
        #expect(BigNumber(bigEndian: [0, 0, 1, 2]).magnitude == [1, 2])
        #expect(BigNumber(bigEndian: [0, 0]).isZero)
        #expect(BigNumber(0x0102).bigEndianBytes(count: 4) == [0, 0, 1, 2])
        #expect(BigNumber(1) < BigNumber(bigEndian: [1, 0]))
        #expect(!(BigNumber(bigEndian: [2, 0]) < BigNumber(bigEndian: [1, 255])))
    }
}
