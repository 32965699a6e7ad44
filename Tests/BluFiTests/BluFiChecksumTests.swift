import BluFi
import Testing

@Suite struct BluFiChecksumTests {
    @Test func matchesTheCatalogueCheckValue() {
        #expect(BluFiChecksum.compute(Array("123456789".utf8)) == 0xD64E)
    }
}
