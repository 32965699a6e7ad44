import BluFi
import Testing

@Suite struct BluFiClientActionTests {
    @Test func describingAWriteNeverShowsItsBytes() {
        let password = BluFiClient.Action.write([0x0D, 0x00, 0x03, 0x04] + Array("pass".utf8))
        #expect(password.description == "write STA_PASSWD seq 3, 8 bytes")
        #expect(BluFiClient.Action.write([0x0D]).description == "write 1-byte value")
    }
}
