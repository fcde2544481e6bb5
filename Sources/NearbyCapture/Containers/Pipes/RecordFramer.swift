/// Finds, in a btsnoop or classic pcap capture as its bytes arrive, the records that a reader
/// of the whole file lends exactly as they are, so that they can be read before the rest has
/// come (RECORDS-11).
///
/// A record is *released* once its header and the next record's header are plausible by the
/// reader's own checks (`BtsnoopFileReader.Header.isPlausible`, `PcapRecordHeader.flaw`),
/// both records are whole, and the next follows it in time (`ProbedRecord.follows`): then the
/// reader's look-ahead passes and it lends the record unchanged, whatever comes later. The
/// first record that is not so stops the framer for good; what follows it, and the last
/// record, are read from the whole file once it has come (its reader skipping the records
/// released).
struct RecordFramer {
    /// The container's record framing.
    enum Kind {
        case btsnoop(BtsnoopDatalink)
        /// Header layout, and the snapshot length libpcap applies (records as long are cut).
        case pcap(PcapRecordHeader.Layout, snapshotLength: UInt32)
    }

    let kind: Kind
    /// The file header's length (bytes): 16 for btsnoop, 24 for pcap.
    let fileHeaderLength: Int
    /// The record header's length (bytes): 24 for btsnoop, 16 for pcap.
    let recordHeaderLength: Int
    /// File offset of the next header to look at.
    private(set) var next: Int64
    /// The last whole, plausible record, not yet released: its successor is not yet seen.
    private var last: ProbedRecord?
    /// File offset of the end of the last record released.
    private(set) var releasedEnd: Int64
    /// Records released so far.
    private(set) var released = 0
    /// True once a record is not plausible or does not follow: nothing more is released.
    private(set) var stopped = false

    /// The framer for a capture whose first bytes are `header` (at least 24 of them when the
    /// file has them); nil when they are not a btsnoop version 1 or classic pcap 2.4 file
    /// header (such files are read whole).
    init?(fileHeader header: [UInt8]) {
        if header.count >= 16, header[0..<8].elementsEqual("btsnoop\0".utf8) {
            guard Self.bigEndian32(header, 8) == 1 else { return nil }
            kind = .btsnoop(BtsnoopDatalink(rawValue: Self.bigEndian32(header, 12)))
            (fileHeaderLength, recordHeaderLength) = (16, BtsnoopFileReader.Header.length)
        } else {
            guard header.count >= 24,
                let layout = header.withUnsafeBytes({ PcapRecordHeader.Layout(fileHeader: $0) }), layout.isVersion2_4
            else { return nil }
            // libpcap takes a snapshot length of 0, or above its 256 KiB maximum, as that maximum.
            let raw = header.withUnsafeBytes { layout.field(16, of: $0.baseAddress!) }
            let maximum = PcapRecordHeader.maximumRecordLength
            kind = .pcap(layout, snapshotLength: raw == 0 || raw > maximum ? maximum : raw)
            (fileHeaderLength, recordHeaderLength) = (24, 16)
        }
        next = Int64(fileHeaderLength)
        releasedEnd = next
    }

    /// Looks at the records that start in `bytes`, the file's bytes from offset `start` (at
    /// most `next`) to the end of what has come, releasing those it can.
    mutating func advance(in bytes: UnsafeRawBufferPointer, from start: Int64) {
        while !stopped {
            let at = Int(next - start)
            guard bytes.count - at >= recordHeaderLength else { return }
            guard let record = probe(bytes.baseAddress! + at, at: next) else {
                stopped = true
                return
            }
            guard record.end - start <= Int64(bytes.count) else { return }
            if let last {
                guard record.follows(last) else {
                    stopped = true
                    return
                }
                releasedEnd = last.end
                released += 1
            }
            last = record
            next = record.end
        }
    }

    /// The record whose header is at `header` (file offset `offset`), when the reader finds
    /// it plausible and lends it whole.
    private func probe(_ header: UnsafeRawPointer, at offset: Int64) -> ProbedRecord? {
        switch kind {
        case .btsnoop(let datalink):
            let h = BtsnoopFileReader.Header(UnsafeRawBufferPointer(start: header, count: recordHeaderLength))
            return h.isPlausible(datalink: datalink, bytesAfterHeader: .max) ? h.probed(at: offset) : nil
        case .pcap(let layout, let snapshotLength):
            let h = PcapRecordHeader(header, layout: layout)
            // libpcap cuts a record as long as the snapshot: where it ends is then its business.
            guard h.capturedLength < snapshotLength else { return nil }
            return h.record(at: offset)
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
