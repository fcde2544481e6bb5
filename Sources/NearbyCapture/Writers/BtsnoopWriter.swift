/// Builds btsnoop version 1 files (BTSNOOP-1 to BTSNOOP-5): the 16-byte file header, then per
/// record a 24-byte big-endian header (original length, included length, flags, drops,
/// timestamp in microseconds since btsnoop's epoch) and the bytes.
public struct BtsnoopWriter {
    public private(set) var bytes: [UInt8] = []

    public init(datalink: BtsnoopDatalink) {
        bytes.append(contentsOf: Array("btsnoop\0".utf8))
        bytes.appendBE(UInt32(1))
        bytes.appendBE(datalink.rawValue)
    }

    /// Flags for datalinks 1001/1002: bit 0 received, bit 1 command or event. For 2001:
    /// adapter index << 16 | opcode.
    public enum Flags {
        public static let sentData: UInt32 = 0x00
        public static let receivedData: UInt32 = 0x01
        public static let sentCommand: UInt32 = 0x02
        public static let receivedEvent: UInt32 = 0x03
    }

    /// Hands over the bytes built so far and starts an empty buffer (for writing a long file
    /// in pieces: `BtsnoopFileWriter`).
    public mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    public mutating func append(_ packet: [UInt8], flags: UInt32, timestampMicros: Int64, originalLength: Int? = nil) {
        bytes.appendBE(UInt32(originalLength ?? packet.count))
        bytes.appendBE(UInt32(packet.count))
        bytes.appendBE(flags)
        bytes.appendBE(UInt32(0))
        bytes.appendBE(timestampMicros &+ BtsnoopFileReader.unixEpochOffsetMicros)
        bytes.append(contentsOf: packet)
    }
}
