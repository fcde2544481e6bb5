/// Little-endian words loaded from a `RawSpan`, for `ShortBytes`: a field of up to 24 bytes
/// is read as a few loads of whole or partial words.
extension RawSpan {
    /// `count` (0…8) bytes from byte offset `offset` as a word whose byte `i` (bits `8 * i`
    /// up) is byte `offset + i`; the bytes past `count` are 0. The caller has checked that
    /// the bytes are there: nothing outside `offset..<offset + count` is read.
    @inlinable @inline(__always)
    func littleEndianWord(at offset: Int, count: Int) -> UInt64 {
        if count == 8 {
            return UInt64(littleEndian: unsafeLoadUnaligned(fromUncheckedByteOffset: offset, as: UInt64.self))
        }
        var word: UInt64 = 0, at = offset, shift: UInt64 = 0
        if count & 4 != 0 {
            word = UInt64(UInt32(littleEndian: unsafeLoadUnaligned(fromUncheckedByteOffset: at, as: UInt32.self)))
            at &+= 4
            shift = 32
        }
        if count & 2 != 0 {
            word |=
                UInt64(UInt16(littleEndian: unsafeLoadUnaligned(fromUncheckedByteOffset: at, as: UInt16.self))) << shift
            at &+= 2
            shift &+= 16
        }
        if count & 1 != 0 {
            word |= UInt64(unsafeLoad(fromUncheckedByteOffset: at, as: UInt8.self)) << shift
        }
        return word
    }

    /// The word of bytes `offset + 8 * k ..< offset + 8 * k + 8` clipped to the first
    /// `count` bytes from `offset` (0 when the word starts past them).
    @inlinable @inline(__always)
    func littleEndianWord(_ k: Int, from offset: Int, count: Int) -> UInt64 {
        let start = 8 &* k
        guard count > start else { return 0 }
        return littleEndianWord(at: offset &+ start, count: Swift.min(count &- start, 8))
    }
}
