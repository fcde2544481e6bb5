import CPcap
import NearbyBytes

/// A classic pcap record header (PCAP-3: ts_sec, ts_usec or ts_nsec, incl_len, orig_len) as
/// libpcap hands it on: seconds and fraction read as signed 32-bit numbers, a nanosecond
/// fraction cut to microseconds. The same whether read by libpcap or from the file's bytes,
/// so that one check (`fault`) decides for both.
struct PcapRecordHeader {
    var seconds: Int64
    /// The fraction of a second (µs; plausible in 0 ..< 1,000,000).
    var microseconds: Int64
    var capturedLength: UInt32
    var originalLength: UInt32

    /// Captured lengths above this are taken for damage (libpcap's own limit for the
    /// Bluetooth link types, 256 KiB: PCAP-9).
    static let maximumRecordLength: UInt32 = 1 << 18
    /// Original lengths above this are taken for damage (Wireshark's bound, 128 MiB: PCAP-10).
    static let maximumOriginalLength: UInt32 = 1 << 27

    /// The header libpcap read.
    init(_ h: pcap_pkthdr) {
        (seconds, microseconds) = (Int64(h.ts.tv_sec), Int64(h.ts.tv_usec))
        (capturedLength, originalLength) = (h.caplen, h.len)
    }

    /// The 16 bytes at `header`, in `layout`.
    @inline(__always)
    init(_ header: UnsafeRawPointer, layout: Layout) {
        seconds = Int64(Int32(bitPattern: layout.field(0, of: header)))
        let fraction = Int64(Int32(bitPattern: layout.field(4, of: header)))
        microseconds = layout.nanoseconds ? fraction / 1000 : fraction
        (capturedLength, originalLength) = (layout.field(8, of: header), layout.field(12, of: header))
    }

    /// Capture time (µs since 1970-01-01T00:00:00Z).
    var timestampMicros: Int64 { seconds &* 1_000_000 &+ microseconds }

    /// What makes a header not plausible (DAMAGE-3).
    enum Flaw {
        /// PCAP-7: a fraction of a second that is a second or more, or negative.
        case fraction
        /// PCAP-8: a captured length of 0.
        case emptyRecord
        /// PCAP-10: an original length below the captured length, or above 128 MiB.
        case originalLength
        /// PCAP-9: a captured length above 256 KiB.
        case capturedLength
    }

    /// The one plausibility check (DAMAGE-3), for a header libpcap read, one looked at in
    /// the stream's window, and one the scan probes: nil when the header is plausible.
    @inline(__always)
    var flaw: Flaw? {
        if microseconds >= 1_000_000 || microseconds < 0 { return .fraction }
        if capturedLength == 0 { return .emptyRecord }
        if capturedLength > originalLength || originalLength > Self.maximumOriginalLength { return .originalLength }
        if capturedLength > Self.maximumRecordLength { return .capturedLength }
        return nil
    }

    /// Why the header is not plausible (`flaw`), with the offset of the field at fault; nil
    /// when it is.
    var fault: DecodeError? {
        switch flaw {
        case nil: nil
        case .fraction:
            DecodeError(.pcap, .invalidValue, at: 4, "timestamp fraction \(microseconds) µs is not under a second")
        case .emptyRecord:
            DecodeError(.pcap, .invalidValue, at: 8, "captured length 0: a record holds at least 1 byte")
        case .originalLength:
            DecodeError(
                .pcap, .invalidValue, at: 12,
                "original length \(originalLength) is not between the captured length \(capturedLength) and "
                    + "\(Self.maximumOriginalLength)")
        case .capturedLength:
            DecodeError(
                .pcap, .invalidValue, at: 8, "captured length \(capturedLength) is above \(Self.maximumRecordLength)")
        }
    }

    /// The record this header starts at file offset `start`, when it is plausible.
    @inline(__always)
    func record(at start: Int64) -> ProbedRecord? {
        guard flaw == nil else { return nil }
        return ProbedRecord(start: start, end: start + 16 + Int64(capturedLength), timestampMicros: timestampMicros)
    }

    /// The byte order and time resolution of a file's record headers, from its magic number
    /// (PCAP-1), and whether its header says version 2.4 (PCAP-2).
    struct Layout {
        var bigEndian: Bool
        var nanoseconds: Bool
        var isVersion2_4: Bool

        /// Nil when the first 8 bytes of the file (`header`) do not start with one of the
        /// four magic numbers of 16-byte record headers.
        init?(fileHeader header: UnsafeRawBufferPointer) {
            guard header.count >= 8 else { return nil }
            switch UInt32(littleEndian: header.loadUnaligned(as: UInt32.self)) {
            case 0xa1b2_c3d4: (bigEndian, nanoseconds) = (false, false)
            case 0xa1b2_3c4d: (bigEndian, nanoseconds) = (false, true)
            case 0xd4c3_b2a1: (bigEndian, nanoseconds) = (true, false)
            case 0x4d3c_b2a1: (bigEndian, nanoseconds) = (true, true)
            default: return nil
            }
            let (major, minor) = (
                header.loadUnaligned(fromByteOffset: 4, as: UInt16.self),
                header.loadUnaligned(fromByteOffset: 6, as: UInt16.self)
            )
            isVersion2_4 =
                bigEndian
                ? (UInt16(bigEndian: major), UInt16(bigEndian: minor)) == (2, 4)
                : (UInt16(littleEndian: major), UInt16(littleEndian: minor)) == (2, 4)
        }

        /// The field at `offset` of the record header at `header`, in the file's byte order.
        @inline(__always)
        func field(_ offset: Int, of header: UnsafeRawPointer) -> UInt32 {
            let raw = header.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
        }
    }
}
