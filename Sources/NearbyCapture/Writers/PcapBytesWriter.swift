/// Builds classic pcap files in memory (pcap file format, sections 3–4), in either byte
/// order and with microsecond or nanosecond timestamps: the four layouts a reader meets.
/// (`PcapWriter` writes through libpcap, which writes the host's byte order and
/// microseconds only.)
public struct PcapBytesWriter {
    public private(set) var bytes: [UInt8] = []
    public let bigEndian: Bool
    public let nanoseconds: Bool

    /// The 24-byte file header: magic (0xA1B2C3D4, or 0xA1B23C4D for nanoseconds), version
    /// 2.4, time zone and accuracy 0, the snapshot length and the link type.
    public init(linkType: LinkType, bigEndian: Bool = false, nanoseconds: Bool = false, snapLength: UInt32 = 262_144) {
        self.bigEndian = bigEndian
        self.nanoseconds = nanoseconds
        bytes.append(UInt32(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4), bigEndian: bigEndian)
        bytes.append(UInt16(2), bigEndian: bigEndian)
        bytes.append(UInt16(4), bigEndian: bigEndian)
        bytes.append(UInt32(0), bigEndian: bigEndian)
        bytes.append(UInt32(0), bigEndian: bigEndian)
        bytes.append(snapLength, bigEndian: bigEndian)
        bytes.append(linkType.rawValue, bigEndian: bigEndian)
    }

    /// Appends a record: its 16-byte header (seconds, fraction, captured and original
    /// length) and `packet`. `timestampMicros` is at or after the Unix epoch.
    public mutating func append(_ packet: [UInt8], timestampMicros: Int64, originalLength: Int? = nil) {
        let (seconds, micros) = timestampMicros.quotientAndRemainder(dividingBy: 1_000_000)
        bytes.append(UInt32(truncatingIfNeeded: seconds), bigEndian: bigEndian)
        bytes.append(UInt32(truncatingIfNeeded: nanoseconds ? micros * 1000 : micros), bigEndian: bigEndian)
        bytes.append(UInt32(packet.count), bigEndian: bigEndian)
        bytes.append(UInt32(originalLength ?? packet.count), bigEndian: bigEndian)
        bytes.append(contentsOf: packet)
    }
}
