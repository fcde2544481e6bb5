/// Walks a pcapng file's blocks by their framing (pcapng draft, section 3.1: block type,
/// total length, body, the total length again), to find the block libpcap gave up at and
/// to keep the blocks libpcap needs to read on past it: the Section Header Block in force
/// and the Interface Description Blocks after it.
struct PcapngBlockWalker {
    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// Block types a resynchronisation may land on: SHB, IDB (1), obsolete Packet (2),
    /// Simple Packet (3), Name Resolution (4), Interface Statistics (5), Enhanced Packet
    /// (6), systemd Journal Export (9), Decryption Secrets (0xA), custom (0xBAD, 0x40000BAD).
    static let knownTypes: Set<UInt32> = [sectionHeader, 1, 2, 3, 4, 5, 6, 9, 0xA, 0xBAD, 0x4000_0BAD]
    /// Packet blocks: the ones libpcap returns as records.
    static let packetTypes: Set<UInt32> = [2, 3, 6]
    /// libpcap's largest block (16 MiB).
    static let maximumBlockLength: UInt32 = 1 << 24

    let window: FileWindow
    /// The section's byte order.
    private(set) var bigEndian = false
    /// The bytes of the Section Header Block in force and of the Interface Description
    /// Blocks after it, in file order: the prefix of a spliced stream.
    private(set) var prefix: [UInt8] = []

    init(window: FileWindow) { self.window = window }

    /// The block at `offset` when its framing holds in the byte order `bigEndian` (or its
    /// own, for a Section Header Block): type, total length (12 or more, a multiple of 4,
    /// at most 16 MiB, inside the file) and the same length at its end.
    func block(at offset: Int64) -> (type: UInt32, length: Int64, bigEndian: Bool)? {
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
        guard Self.knownTypes.contains(type),
            let length = window.integer(UInt32.self, at: offset + 4, bigEndian: order),
            length >= 12, length % 4 == 0, length <= Self.maximumBlockLength,
            offset + Int64(length) <= window.size,
            window.integer(UInt32.self, at: offset + Int64(length) - 4, bigEndian: order) == length
        else { return nil }
        return (type, Int64(length), order)
    }

    /// Walks from `offset` (a block start) and returns the offset of the first block whose
    /// framing fails, or of the packet block after `packets` packet blocks, whichever comes
    /// first (with whether its framing held); nil when neither comes before the end.
    mutating func walk(from offset: Int64, packets: Int) -> (offset: Int64, framed: Bool)? {
        var at = offset
        var seen = 0
        while at < window.size {
            guard let b = block(at: at) else { return (at, false) }
            if Self.packetTypes.contains(b.type) {
                if seen == packets { return (at, true) }
                seen += 1
            }
            keep(b, at: at)
            at += b.length
        }
        return nil
    }

    /// Takes the Section Header and Interface Description Blocks that libpcap needs to read
    /// the blocks after `offset`.
    mutating func keep(_ b: (type: UInt32, length: Int64, bigEndian: Bool), at offset: Int64) {
        if b.type == Self.sectionHeader {
            bigEndian = b.bigEndian
            prefix = []
        } else if b.type != 1 {
            return
        }
        var at = offset
        while at < offset + b.length {
            let n = Int(min(Int64(FileWindow.windowSize / 2), offset + b.length - at))
            guard let raw = window.bytes(at: at, count: n) else { return }
            prefix.append(contentsOf: raw)
            at += Int64(n)
        }
    }

    /// A probe for `Resynchronizer`: a block whose framing holds, in the section's byte order.
    func probe(_ window: FileWindow, at offset: Int64) -> ProbedRecord? {
        block(at: offset).map { ProbedRecord(start: offset, end: offset + $0.length, timestampMicros: nil) }
    }
}
