import NearbyCapture

/// Where the records of a capture file lie (docs/damaged-captures.md), as the container's
/// framing puts them: each record's extent (header and data; a pcapng packet block whole; a
/// hex text line with its line end), the size of its header and where its length field is.
/// Read from a file that reads without a container fault.
public struct CaptureLayout: Sendable {
    public struct Record: Sendable, Equatable {
        /// File offsets of the record's first byte and of the byte after it.
        public var extent: Range<Int>
        /// Bytes before the record's data (btsnoop 24, pcap 16, a pcapng Enhanced Packet Block
        /// 28; a hex text line counts whole).
        public var header: Int
        /// Offset in the record of its 4-byte length field (btsnoop's included length, pcap's
        /// captured length, a pcapng block's total length).
        public var lengthField: Int
        /// The record as read: time (µs) and bytes.
        public var timestampMicros: Int64?
        public var bytes: [UInt8]
        /// btsnoop's cumulative drop count (its header's bytes 12–15, big-endian); 0 elsewhere.
        public var drops: UInt32 = 0
    }

    public var format: CaptureFormat
    /// The records in file order.
    public var records: [Record]
    /// The file header's length: btsnoop 16, pcap 24, pcapng the Section Header Block (the
    /// header a second file brings when files are concatenated), hex text 0.
    public var fileHeaderLength: Int
    /// Where the first record that damage may hit starts: no damage is placed before (a
    /// damaged file header makes the file unreadable, which is not the damage this model is
    /// about). For hex text, the second line: the first one tells the format.
    public var headerEnd: Int

    /// True when a record does not follow the one before (docs/damaged-captures.md): more
    /// than a day apart in time, either way, or with fewer cumulative drops.
    public var hasStep: Bool {
        zip(records, records.dropFirst()).contains { a, b in
            guard b.drops >= a.drops else { return true }
            guard let s = a.timestampMicros, let t = b.timestampMicros else { return false }
            let (d, overflow) = t.subtractingReportingOverflow(s)
            return overflow || d.magnitude > 86_400_000_000
        }
    }

    /// The layout of the file at `path` holding `bytes`; nil when it cannot be opened or a
    /// record is malformed at the container.
    public init?(path: String, bytes: [UInt8]) {
        guard let reader = try? CaptureFile.open(path) else { return nil }
        format = reader.format
        var read: [(RecordMetadata, [UInt8])] = []
        while let step = reader.next() {
            guard case .record(let r) = step else { return nil }
            read.append((r.metadata, Array(r.bytes)))
        }
        records = []
        switch format {
        case .btsnoop, .pcap:
            let (header, field) = format == .btsnoop ? (24, 4) : (16, 8)
            fileHeaderLength = format == .btsnoop ? 16 : 24
            for (m, b) in read {
                guard let data = m.fileOffset.map({ Int($0) }), m.originalLength == b.count else { return nil }
                let start = data - header
                let drops =
                    format == .btsnoop
                    ? bytes[(start + 12)..<(start + 16)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } : 0
                records.append(
                    Record(
                        extent: start..<(data + b.count), header: header, lengthField: field,
                        timestampMicros: m.timestampMicros, bytes: b, drops: drops))
            }
        case .pcapng:
            guard bytes.count >= 12 else { return nil }
            let big = bytes[8] == 0x1A
            func u32(_ at: Int) -> Int {
                let v = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
                return big ? v : Int(UInt32(v).byteSwapped)
            }
            fileHeaderLength = u32(4)
            for (m, b) in read {
                guard let data = m.fileOffset.map({ Int($0) }) else { return nil }
                let header = u32(data - 28) == 6 || u32(data - 28) == 2 ? 28 : 12
                let start = data - header
                records.append(
                    Record(
                        extent: start..<(start + u32(start + 4)), header: header, lengthField: 4,
                        timestampMicros: m.timestampMicros, bytes: b))
            }
        case .hexText:
            fileHeaderLength = 0
            var lineStarts = [0]
            for (i, byte) in bytes.enumerated() where byte == 0x0A { lineStarts.append(i + 1) }
            lineStarts.append(bytes.count)
            for (m, b) in read {
                guard let line = m.line, line < lineStarts.count else { return nil }
                let extent = lineStarts[line - 1]..<lineStarts[line]
                records.append(
                    Record(extent: extent, header: extent.count, lengthField: 0, timestampMicros: nil, bytes: b))
            }
        case .live:
            return nil
        }
        headerEnd = (format == .hexText ? records.dropFirst() : records[...]).first?.extent.lowerBound ?? bytes.count
    }
}
