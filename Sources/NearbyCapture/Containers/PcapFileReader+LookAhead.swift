import CPcap
import NearbyBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The look-ahead of classic pcap without a copy: a record is checked against the next
/// header before it is lent (docs/damaged-captures.md). When that header, and the bytes of
/// its record, are already in the stream's buffer, the reader reads the header there,
/// where libpcap will read it next, and lends the record where libpcap read it; otherwise
/// it holds a copy of the record until libpcap has read the next one (`hold`).
extension PcapFileReader {
    /// The layout of the file's record headers, from its magic number (pcap file format,
    /// section 3), and what makes one plausible (docs/damaged-captures.md).
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
        init?(stream: UnsafeMutablePointer<FILE>) {
            var magic: UInt32 = 0
            guard pread(fileno(stream), &magic, 4, 0) == 4 else { return nil }
            self.init(magic: UInt32(littleEndian: magic))
        }

        /// The record whose 16-byte header is at `header` (ts_sec, ts_usec or ts_nsec,
        /// incl_len, orig_len), the header at file offset `start`; nil when the header is not
        /// plausible: a fraction of a second that is a second or more, a captured length above
        /// `maximumRecordLength` or above the original length, an original length above
        /// `maximumOriginalLength`.
        func record(header: UnsafeRawPointer, at start: Int64) -> ProbedRecord? {
            func field(_ offset: Int) -> UInt32 {
                let raw = header.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
                return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
            }
            let (seconds, fraction, included, original) = (field(0), field(4), field(8), field(12))
            guard fraction < (nanoseconds ? 1_000_000_000 : 1_000_000),
                included <= PcapFileReader.maximumRecordLength, original >= included,
                original <= PcapFileReader.maximumOriginalLength
            else { return nil }
            let micros = Int64(seconds) * 1_000_000 + Int64(nanoseconds ? fraction / 1000 : fraction)
            return ProbedRecord(start: start, end: start + 16 + Int64(included), timestampMicros: micros)
        }
    }

    /// The record after `record` when its header is in the stream's buffer with all its
    /// bytes, is plausible, and follows `record`: what libpcap will read next is then that
    /// header and those bytes, which the look-ahead of `read` would accept. Nil otherwise.
    func bufferedRecord(after record: ProbedRecord) -> ProbedRecord? {
        #if canImport(Glibc)
        guard let layout = headerLayout, let stream,
            let next = stream.pointee._IO_read_ptr, let end = stream.pointee._IO_read_end
        else { return nil }
        let available = end - next
        guard available >= 16, let following = layout.record(header: UnsafeRawPointer(next), at: record.end)
        else { return nil }
        // libpcap cuts a record longer than the snapshot length and skips the rest: read as
        // `read` does, not here.
        let length = Int(following.end - following.start)
        guard length - 16 < snapshotLength && available >= length && following.follows(record) else { return nil }
        return following
        #else
        return nil
        #endif
    }

    /// Reads as `read` does, then, while the next record is in the stream's buffer
    /// (`buffered`), reads that one: its header was checked where libpcap reads it, so it
    /// needs none of `read`'s checks but the look-ahead to the header after it. A result of
    /// libpcap's other than the one foreseen goes the way of `read`.
    public func readRun(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        let step = read(body)
        while let record = buffered {
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
