/// Cuts a byte stream into H4 packets (H4-10; Core Vol 4 Part A §2): an indicator byte, then
/// a header whose length field says how many bytes follow.
///
/// | indicator | packet | header after the indicator | length field |
/// |---|---|---|---|
/// | 0x01 | command | opcode (2), length (1) | 1 byte |
/// | 0x02 | ACL data | handle and flags (2), length (2, LE) | 2 bytes |
/// | 0x03 | SCO data | handle and flags (2), length (1) | 1 byte |
/// | 0x04 | event | code (1), length (1) | 1 byte |
/// | 0x05 | ISO data | handle and flags (2), length (2, LE, 14 bits) | 2 bytes |
///
/// Any other indicator means the stream is not H4 (or framing was lost): the stream cannot
/// be cut further, and the framer says where.
struct H4StreamFramer {
    /// What the bytes so far give.
    enum Step: Equatable {
        case packet([UInt8])
        /// More bytes are needed to complete the next packet.
        case needMore
        /// The byte at stream offset `offset` (0-based, from the first byte received) is
        /// `indicator`, which no H4 packet starts with.
        case garbage(offset: Int64, indicator: UInt8)
    }

    private var buffer: [UInt8] = []
    private var start = 0
    /// Stream offset of `buffer[start]`.
    private(set) var offset: Int64 = 0

    /// Bytes received and not yet handed out as packets.
    var pending: Int { buffer.count - start }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 16 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete packet (indicator first), or why there is none.
    mutating func next() -> Step {
        guard pending > 0 else { return .needMore }
        let indicator = buffer[start]
        // Bytes of header after the indicator, and where its length field is (1 or 2 bytes).
        let headerLength: Int, lengthAt: Int, wideLength: Bool
        switch indicator {
        case 0x01, 0x03: (headerLength, lengthAt, wideLength) = (3, 3, false)
        case 0x04: (headerLength, lengthAt, wideLength) = (2, 2, false)
        case 0x02, 0x05: (headerLength, lengthAt, wideLength) = (4, 3, true)
        default: return .garbage(offset: offset, indicator: indicator)
        }
        guard pending >= 1 + headerLength else { return .needMore }
        var length = Int(buffer[start + lengthAt])
        if wideLength { length |= Int(buffer[start + lengthAt + 1]) << 8 }
        if indicator == 0x05 { length &= 0x3FFF }
        let total = 1 + headerLength + length
        guard pending >= total else { return .needMore }
        let packet = Array(buffer[start..<start + total])
        start += total
        offset += Int64(total)
        return .packet(packet)
    }
}
