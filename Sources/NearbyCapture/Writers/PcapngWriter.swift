/// Builds pcapng files (IETF draft-ietf-opsawg-pcapng): one Section Header Block, one
/// Interface Description Block of the given link type (timestamps in microseconds, the
/// default `if_tsresol`), and an Enhanced Packet Block per record. Little-endian.
/// libpcap reads pcapng but cannot write it, so this is native.
public struct PcapngWriter {
    public private(set) var bytes: [UInt8] = []

    public init(linkType: LinkType, snapLength: UInt32 = 262_144) {
        // Section Header Block: type, length, byte-order magic, version 1.0, section length −1.
        block(type: 0x0A0D_0D0A) { body in
            body.appendLE(UInt32(0x1A2B_3C4D))
            body.appendLE(UInt16(1))
            body.appendLE(UInt16(0))
            body.appendLE(UInt64.max)
        }
        // Interface Description Block: link type, reserved, snap length.
        block(type: 0x0000_0001) { body in
            body.appendLE(UInt16(truncatingIfNeeded: linkType.rawValue))
            body.appendLE(UInt16(0))
            body.appendLE(snapLength)
        }
    }

    /// Hands over the bytes built so far and starts an empty buffer (for writing a file in
    /// pieces as its records come).
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Appends an Enhanced Packet Block on interface 0.
    public mutating func append(_ packet: [UInt8], timestampMicros: Int64, originalLength: Int? = nil) {
        block(type: 0x0000_0006) { body in
            body.appendLE(UInt32(0))
            let t = UInt64(bitPattern: timestampMicros)
            body.appendLE(UInt32(truncatingIfNeeded: t >> 32))
            body.appendLE(UInt32(truncatingIfNeeded: t))
            body.appendLE(UInt32(packet.count))
            body.appendLE(UInt32(originalLength ?? packet.count))
            body.append(contentsOf: packet)
            while body.count % 4 != 0 { body.append(0) }
        }
    }

    private mutating func block(type: UInt32, _ fill: (inout [UInt8]) -> Void) {
        var body: [UInt8] = []
        fill(&body)
        let total = UInt32(12 + body.count)
        bytes.appendLE(type)
        bytes.appendLE(total)
        bytes.append(contentsOf: body)
        bytes.appendLE(total)
    }
}
