/// CRC-16/CCITT-FALSE, the frame check of NUT v1 (NUT-27).
///
/// Polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR. The check value
/// (the CRC of the ASCII bytes "123456789") is 0x29B1 (the CRC RevEng catalogue entry
/// "CRC-16/IBM-3740", alias CCITT-FALSE).
public enum CRC16CCITT {
    /// The CRC of `bytes`, continuing from `crc` (0xFFFF to start).
    public static func checksum<Bytes: Sequence>(_ bytes: Bytes, continuing crc: UInt16 = 0xFFFF) -> UInt16
    where Bytes.Element == UInt8 {
        var crc = crc
        for byte in bytes {
            crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
        }
        return crc
    }

    /// `table[i]` is the CRC register after shifting the byte `i` through a zero register.
    static let table: [UInt16] = (0..<256).map { i in
        var crc = UInt16(i) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }
}
