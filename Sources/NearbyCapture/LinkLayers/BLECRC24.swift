/// The LE link-layer CRC (LL-5; Core Vol 6 Part B §3.1.1): 24 bits, polynomial
/// x²⁴ + x¹⁰ + x⁹ + x⁶ + x⁴ + x³ + x + 1, shifted in least significant bit first from the
/// PDU header on; the register starts at 0x555555 on the advertising channels. The CRC is
/// sent most significant register bit first, which in a capture's byte order makes the
/// three bytes little-endian in the bit-reflected form computed here.
public enum BLECRC24 {
    /// CRC init on the advertising physical channel.
    public static let advertisingChannelInit: UInt32 = 0x555555

    /// The CRC of `pdu` (header and payload) as the three bytes appear in a capture,
    /// read little-endian.
    public static func compute<C: Collection>(_ pdu: C, initial: UInt32 = advertisingChannelInit) -> UInt32
    where C.Element == UInt8 {
        // Reflected register: bit i of `state` is register position 23 − i of the spec's LFSR.
        var state: UInt32 = 0
        for i in 0..<24 where initial & (1 << i) != 0 { state |= 1 << (23 - i) }
        for byte in pdu {
            state ^= UInt32(byte)
            for _ in 0..<8 {
                state = state & 1 != 0 ? (state >> 1) ^ 0xDA6000 : state >> 1
            }
        }
        return state
    }

    /// `value` with its 24 bits in reverse order.
    public static func reversed(_ value: UInt32) -> UInt32 {
        var out: UInt32 = 0
        for i in 0..<24 where value & (1 << i) != 0 { out |= 1 << (23 - i) }
        return out
    }
}
