import CPcap
import NearbyBytes
import NearbySystem

/// The look-ahead of classic pcap without a copy: a record is checked against the next
/// header before it is lent (DAMAGE-7). When that header, and the bytes of
/// its record, are already in the stream's buffer, the reader reads the header there,
/// where libpcap will read it next, and lends the record where libpcap read it; otherwise
/// it holds a copy of the record until libpcap has read the next one (`hold`). In a run of
/// such records (`readRun`), a record libpcap would hand on unchanged is lent where it lies
/// in the buffer and the stream stepped past it, as `pcap_next_ex` would have read it
/// (`lendFromStreamBuffer`).
extension PcapFileReader {
    /// The layout of the file's record headers, from its magic number (PCAP-1), and what
    /// makes one plausible (DAMAGE-3).
    struct HeaderLayout {
        var bigEndian: Bool
        var nanoseconds: Bool

        /// Nil for a magic number other than the four of 16-byte record headers.
        init?(magic: UInt32) {
            switch magic {
            case 0xa1b2_c3d4: (bigEndian, nanoseconds) = (false, false)
            case 0xa1b2_3c4d: (bigEndian, nanoseconds) = (false, true)
            case 0xd4c3_b2a1: (bigEndian, nanoseconds) = (true, false)
            case 0x4d3c_b2a1: (bigEndian, nanoseconds) = (true, true)
            default: return nil
            }
        }

        /// The layout of the file `stream` reads, from its first four bytes; nil when they
        /// cannot be read at an offset (a pipe) or are not one of the four magic numbers.
        init?(stream: StdioStream.Pointer) {
            var magic: UInt32 = 0
            guard withUnsafeMutableBytes(of: &magic, { StdioStream.read(stream, at: 0, into: $0) }) == 4 else {
                return nil
            }
            self.init(magic: UInt32(littleEndian: magic))
        }

        /// Whether the file header of the file `stream` reads says version 2.4 (its major and
        /// minor version, bytes 4–7, in this layout's byte order).
        func isVersion2_4(of stream: StdioStream.Pointer) -> Bool {
            var version = (UInt16(0), UInt16(0))
            guard withUnsafeMutableBytes(of: &version, { StdioStream.read(stream, at: 4, into: $0) }) == 4 else {
                return false
            }
            let (major, minor) =
                bigEndian
                ? (UInt16(bigEndian: version.0), UInt16(bigEndian: version.1))
                : (UInt16(littleEndian: version.0), UInt16(littleEndian: version.1))
            return major == 2 && minor == 4
        }

        /// The record whose 16-byte header is at `header` (ts_sec, ts_usec or ts_nsec,
        /// incl_len, orig_len), the header at file offset `start`; nil when the header is not
        /// plausible: a fraction of a second that is a second or more, a captured length of 0
        /// or above `maximumRecordLength` or above the original length, an original length
        /// above `maximumOriginalLength`.
        func record(header: UnsafeRawPointer, at start: Int64) -> ProbedRecord? {
            let (seconds, fraction) = (field(0, of: header), field(4, of: header))
            let (included, original) = (field(8, of: header), field(12, of: header))
            guard fraction < (nanoseconds ? 1_000_000_000 : 1_000_000),
                included &- 1 < PcapFileReader.maximumRecordLength, original >= included,
                original <= PcapFileReader.maximumOriginalLength
            else { return nil }
            let micros = Int64(seconds) * 1_000_000 + Int64(nanoseconds ? fraction / 1000 : fraction)
            return ProbedRecord(start: start, end: start + 16 + Int64(included), timestampMicros: micros)
        }

        /// The field at `offset` of the record header at `header`, in the file's byte order.
        @inline(__always)
        func field(_ offset: Int, of header: UnsafeRawPointer) -> UInt32 {
            let raw = header.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
        }
    }

    /// Whether libpcap hands on records of `linkType` as the file holds them (see
    /// `lendsFromStreamBuffer`): the Bluetooth link types.
    static func libpcapHandsOnUnchanged(_ linkType: LinkType) -> Bool {
        switch linkType {
        case .bluetoothHCIH4, .bluetoothHCIH4WithPHDR, .bluetoothLELL, .bluetoothLinuxMonitor,
            .bluetoothLELLWithPHDR, .nordicBLE:
            true
        default: false
        }
    }

    /// The record after `record` when its header is in the stream's buffer with all its
    /// bytes, is plausible, and follows `record`: what libpcap will read next is then that
    /// header and those bytes, which the look-ahead of `read` would accept. Nil otherwise.
    func bufferedRecord(after record: ProbedRecord) -> ProbedRecord? {
        guard looksAheadInStreamBuffer, let stream, let buffered = StdioStream.bufferedBytes(stream) else { return nil }
        return bufferedRecord(after: record, in: buffered)
    }

    /// The record whose header starts `buffered` (the stream's buffer from there on), as
    /// `bufferedRecord(after:)` gives it.
    @inline(__always)
    func bufferedRecord(after record: ProbedRecord, in buffered: UnsafeRawBufferPointer) -> ProbedRecord? {
        guard let layout = headerLayout, let next = buffered.baseAddress else { return nil }
        let available = buffered.count
        guard available >= 16, let following = layout.record(header: next, at: record.end)
        else { return nil }
        // libpcap cuts a record longer than the snapshot length and skips the rest: read as
        // `read` does, not here.
        let length = Int(following.end - following.start)
        guard length - 16 < snapshotLength && available >= length && following.follows(record) else { return nil }
        return following
    }

    /// Reads as `read` does, then, while the next record is in the stream's buffer
    /// (`buffered`), reads that one: its header was checked where libpcap reads it, so it
    /// needs none of `read`'s checks but the look-ahead to the header after it. A result of
    /// libpcap's other than the one foreseen goes the way of `read`.
    public func readRun(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        let step = read(body)
        while let record = buffered {
            if lendFromStreamBuffer(record, body) { continue }
            buffered = nil
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let rc = pcap_next_ex(handle, &header, &data)
            guard rc == 1, let h = header?.pointee, let data, Int64(h.caplen) &+ 16 == record.end &- record.start
            else {
                // Not what the buffered header said (a file whose lengths libpcap swaps).
                let next = take(rc, header: header, data: data, body) ?? read(body)
                guard case .record = next else { return next }
                continue
            }
            nextRecordOffset = record.end
            let bytes = UnsafeRawBufferPointer(start: data, count: Int(h.caplen))
            if !lendOrHold(record, bytes: bytes, originalLength: Int(h.len), body) {
                // Held until libpcap has read the header after it, as `read` holds it.
                let next = read(body)
                guard case .record = next else { return next }
            }
        }
        return step
    }

    /// Lends `record`, the record libpcap reads next (`buffered`), where it lies in the
    /// stream's buffer and steps the stream past it, as `pcap_next_ex` reads it (the header
    /// and bytes libpcap would hand on, when `lendsFromStreamBuffer`), if the record after it
    /// is in the buffer too (it becomes `buffered`) and returns true; otherwise does nothing
    /// and returns false.
    @inline(__always)
    func lendFromStreamBuffer(_ record: ProbedRecord, _ body: (borrowing RecordView) -> Void) -> Bool {
        guard lendsFromStreamBuffer, let stream, let window = StdioStream.bufferedBytes(stream),
            let header = window.baseAddress, let layout = headerLayout
        else { return false }
        let length = Int(record.end &- record.start)
        guard length <= window.count,
            let next = bufferedRecord(after: record, in: UnsafeRawBufferPointer(rebasing: window[length...]))
        else { return false }
        StdioStream.consume(stream, length)
        buffered = next
        nextRecordOffset = record.end
        index += 1
        let original = Int(layout.field(12, of: header))
        lend(
            Held(index: index, record: record, originalLength: original),
            bytes: UnsafeRawBufferPointer(start: header + 16, count: length &- 16), body)
        return true
    }

    /// Lends `record`, read by libpcap with the look-ahead's checks passed, when the record
    /// after it is in the stream's buffer (`buffered` is then that one) and returns true;
    /// otherwise holds it until libpcap has read the next header, and returns false.
    @inline(__always)
    func lendOrHold(
        _ record: ProbedRecord, bytes: UnsafeRawBufferPointer, originalLength: Int,
        _ body: (borrowing RecordView) -> Void
    ) -> Bool {
        guard let next = bufferedRecord(after: record) else {
            hold(record, bytes: bytes, originalLength: originalLength)
            return false
        }
        index += 1
        lend(Held(index: index, record: record, originalLength: originalLength), bytes: bytes, body)
        buffered = next
        return true
    }

    /// Lends a record read from libpcap, its bytes at `bytes`.
    func lend(_ held: Held, bytes: UnsafeRawBufferPointer, _ body: (borrowing RecordView) -> Void) {
        lastLent = held.record
        body(
            RecordView(
                RecordMetadata(
                    index: held.index, timestampMicros: held.record.timestampMicros, encapsulation: .pcap(linkType),
                    originalLength: held.originalLength, fileOffset: held.record.start + 16),
                bytes: Span(_unsafeBytes: bytes)))
    }
}
