/// Walks a pcapng file's blocks by their framing (PCAPNG-12: block type, total length,
/// body, the total length again), beside libpcap, which reads the same blocks from its
/// stream: to give each packet its file offset, to find the blocks libpcap passed over in
/// silence, and to find the block libpcap gave up at (DAMAGE-4, DAMAGE-14).
struct PcapngBlockWalker {
    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// Whether blocks of `type` are packet blocks, the ones libpcap returns as records:
    /// obsolete Packet (2), Simple Packet (3), Enhanced Packet (6).
    @inline(__always)
    static func isPacket(type: UInt32) -> Bool { type == 6 || type == 3 || type == 2 }
    /// libpcap's largest block (16 MiB).
    static let maximumBlockLength: UInt32 = 1 << 24

    /// A block whose framing holds.
    struct Block {
        var type: UInt32
        /// Total length (bytes), 12 or more and a multiple of 4.
        var length: Int64
        /// The byte order of the block's section.
        var bigEndian: Bool

        /// Offset of the packet data in a packet block: 12 in a Simple Packet Block, 28 in an
        /// Enhanced or obsolete Packet Block.
        var dataOffset: Int64 { type == 3 ? 12 : 28 }
    }

    let window: FileWindow
    /// The byte order of the section being walked (PCAPNG-1).
    private(set) var bigEndian = false

    /// A walker in the byte order of the file's first Section Header Block.
    init(window: FileWindow) {
        self.window = window
        if let first = block(at: 0), first.type == Self.sectionHeader { bigEndian = first.bigEndian }
    }

    /// Whether blocks of `type` may stand in a section (PCAPNG-10, PCAPNG-11): the
    /// registered types (1–10, the Hone Project's 0x101–0x10F, Sysdig's 0x201–0x2FF, the
    /// custom blocks 0xBAD and 0x40000BAD, the Section Header Block) and the range reserved
    /// for local use (the top bit set). Any other type is reserved or unassigned: no writer
    /// uses it, so a block that has one is a block whose type field was damaged.
    static func isLegal(type: UInt32) -> Bool {
        switch type {
        case 1...10, 0x101...0x10F, 0x201...0x2FF, 0xBAD, 0x4000_0BAD, sectionHeader: true
        default: type & 0x8000_0000 != 0
        }
    }

    /// The block at `offset` when its framing holds in the byte order of the section (or its
    /// own, for a Section Header Block): total length 12 or more, a multiple of 4, at most
    /// 16 MiB, inside the file, and the same length at its end. Its type may be any.
    func block(at offset: Int64) -> Block? {
        guard var type = window.integer(UInt32.self, at: offset, bigEndian: bigEndian) else { return nil }
        var order = bigEndian
        if type == Self.sectionHeader || type.byteSwapped == Self.sectionHeader {
            guard let magic = window.integer(UInt32.self, at: offset + 8, bigEndian: false) else { return nil }
            if magic == Self.byteOrderMagic {
                order = false
            } else if magic.byteSwapped == Self.byteOrderMagic {
                order = true
            } else {
                return nil
            }
            type = Self.sectionHeader
        }
        guard let length = window.integer(UInt32.self, at: offset + 4, bigEndian: order),
            length >= 12, length % 4 == 0, length <= Self.maximumBlockLength,
            offset + Int64(length) <= window.size,
            window.integer(UInt32.self, at: offset + Int64(length) - 4, bigEndian: order) == length
        else { return nil }
        return Block(type: type, length: Int64(length), bigEndian: order)
    }

    /// Steps over `block` at `offset`: a Section Header Block sets the byte order of the
    /// blocks after it. Returns the offset of the next block.
    mutating func pass(_ block: Block, at offset: Int64) -> Int64 {
        if block.type == Self.sectionHeader { bigEndian = block.bigEndian }
        return offset + block.length
    }

    /// A probe for `Resynchronizer`: a block of a legal type whose framing holds, in the
    /// section's byte order.
    func probe(_ window: FileWindow, at offset: Int64) -> ProbedRecord? {
        guard let b = block(at: offset), Self.isLegal(type: b.type) else { return nil }
        return ProbedRecord(start: offset, end: offset + b.length, timestampMicros: nil)
    }
}
