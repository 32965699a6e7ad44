/// The BluFi frame checksum: CRC-16/GENIBUS (polynomial 0x1021, MSB first, init 0xFFFF, xorout 0xFFFF).
///
/// ESP-IDF computes it with the ROM's `crc16_be(0, …)`, which complements the register before and after
/// the loop; that is the catalogued GENIBUS parameter set (check value 0xD64E over "123456789").
public enum BluFiChecksum {
    /// The CRC of `bytes`.
    public static func compute(_ bytes: [UInt8]) -> UInt16 {
        var register: UInt16 = 0xFFFF
        for byte in bytes {
            register ^= UInt16(byte) << 8
            for _ in 0..<8 {
                register = register & 0x8000 != 0 ? (register << 1) ^ 0x1021 : register << 1
            }
        }
        return register ^ 0xFFFF
    }
}
