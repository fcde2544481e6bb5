/// Builds pcapng files (IETF draft-ietf-opsawg-pcapng): one Section Header Block, one or more
/// Interface Description Blocks of the given link type (timestamps in microseconds, the
/// default `if_tsresol`), and an Enhanced Packet Block per record, in either byte order.
/// libpcap reads pcapng but cannot write it, so this is native.
public struct PcapngWriter {
    public private(set) var bytes: [UInt8] = []
    /// The section's byte order.
    public let bigEndian: Bool

    /// A section of `interfaces` interfaces (1 or more), all of `linkType`.
    public init(linkType: LinkType, snapLength: UInt32 = 262_144, bigEndian: Bool = false, interfaces: Int = 1) {
        self.bigEndian = bigEndian
        // Section Header Block: type, length, byte-order magic, version 1.0, section length −1.
        block(type: 0x0A0D_0D0A) { body, order in
            body.append(UInt32(0x1A2B_3C4D), bigEndian: order)
            body.append(UInt16(1), bigEndian: order)
            body.append(UInt16(0), bigEndian: order)
            body.append(UInt64.max, bigEndian: order)
        }
        // Interface Description Blocks: link type, reserved, snap length.
        for _ in 0..<max(1, interfaces) {
            block(type: 0x0000_0001) { body, order in
                body.append(UInt16(truncatingIfNeeded: linkType.rawValue), bigEndian: order)
                body.append(UInt16(0), bigEndian: order)
                body.append(snapLength, bigEndian: order)
            }
        }
    }

    /// Hands over the bytes built so far and starts an empty buffer (for writing a file in
    /// pieces as its records come).
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Appends an Enhanced Packet Block on interface `interface` (0-based).
    public mutating func append(
        _ packet: [UInt8], timestampMicros: Int64, originalLength: Int? = nil, interface: Int = 0
    ) {
        block(type: 0x0000_0006) { body, order in
            body.append(UInt32(interface), bigEndian: order)
            let t = UInt64(bitPattern: timestampMicros)
            body.append(UInt32(truncatingIfNeeded: t >> 32), bigEndian: order)
            body.append(UInt32(truncatingIfNeeded: t), bigEndian: order)
            body.append(UInt32(packet.count), bigEndian: order)
            body.append(UInt32(originalLength ?? packet.count), bigEndian: order)
            body.append(contentsOf: packet)
            while body.count % 4 != 0 { body.append(0) }
        }
    }

    /// Appends a block of any `type` with `body` (padded to a multiple of 4 bytes): for
    /// files with blocks this writer does not otherwise write.
    public mutating func appendBlock(type: UInt32, body content: [UInt8]) {
        block(type: type) { body, _ in
            body.append(contentsOf: content)
            while body.count % 4 != 0 { body.append(0) }
        }
    }

    private mutating func block(type: UInt32, _ fill: (inout [UInt8], Bool) -> Void) {
        var body: [UInt8] = []
        fill(&body, bigEndian)
        let total = UInt32(12 + body.count)
        bytes.append(type, bigEndian: bigEndian)
        bytes.append(total, bigEndian: bigEndian)
        bytes.append(contentsOf: body)
        bytes.append(total, bigEndian: bigEndian)
    }
}
