import CPcap
import NearbyBytes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads pcap and pcapng files through libpcap (`pcap_open_offline_with_tstamp_precision`,
/// `pcap_next_ex`), with microsecond timestamps whatever the file's precision.
///
/// libpcap cannot resynchronise after a damaged record, so a truncated or over-long
/// record ends the file: it is reported as malformed, with libpcap's own explanation.
/// File offsets are exact for classic pcap; pcapng blocks carry options of variable
/// length, so there only offsets inside the record are given.
public final class PcapFileReader: CaptureRecordReader {
    public let format: CaptureFormat
    public let linkType: LinkType
    public var encapsulationDescription: String { "\(format.rawValue) LINKTYPE \(linkType)" }

    private let handle: OpaquePointer
    /// The buffer of the stream under `handle`.
    private let streamBuffer: UnsafeMutablePointer<CChar>
    /// The file's snapshot length: a record this long may have been cut by libpcap.
    private let snapshotLength: Int
    // Only `read` touches the reader's state, and a reader is used by one thread at a time
    // (it is not Sendable): no run-time exclusivity check per record.
    @exclusivity(unchecked) private var index = 0
    private var done = false
    /// Where the next classic-pcap record header starts: the file header is 24 bytes and a
    /// record is its 16-byte header and `caplen` bytes (counted here rather than asked of
    /// the stream, whose `ftello` costs a system call per record; asked only when libpcap
    /// may have cut the record to the snapshot length).
    @exclusivity(unchecked) private var nextRecordOffset: Int64 = 24

    /// The stdio buffer of the stream libpcap reads (bytes).
    static let streamBufferSize = 1 << 18

    public init(path: String, format: CaptureFormat) throws(CaptureFileError) {
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        // The stream is opened here, rather than by `pcap_open_offline`, to give it a
        // buffer of `streamBufferSize` before libpcap reads from it: with stdio's default
        // (the file system's block size, 4 KiB) reading a capture was a `read(2)` per 4 KiB,
        // 13,000 system calls for a million advertisements.
        guard let stream = fopen(path, "rb") else {
            throw CaptureFileError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        // glibc ignores the size unless it is given the buffer too.
        let streamBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.streamBufferSize)
        setvbuf(stream, streamBuffer, _IOFBF, Self.streamBufferSize)
        guard let h = pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errbuf) else {
            fclose(stream)   // libpcap closes the stream only once it has taken it
            streamBuffer.deallocate()
            throw CaptureFileError(path: path, reason: "libpcap: " + String(decoding: errbuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = h
        self.streamBuffer = streamBuffer
        snapshotLength = Int(pcap_snapshot(h))
        self.format = format
        linkType = LinkType(rawValue: UInt32(bitPattern: pcap_datalink(h)))
    }

    deinit {
        pcap_close(handle)   // closes the stream, which used `streamBuffer` until then
        streamBuffer.deallocate()
    }

    public func read(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        guard !done else { return .end }
        var header: UnsafeMutablePointer<pcap_pkthdr>?
        var data: UnsafePointer<UInt8>?
        let rc = pcap_next_ex(handle, &header, &data)
        switch rc {
        case 1:
            index += 1
            let h = header!.pointee
            let length = Int(h.caplen)
            var fileOffset: Int64? = nil
            if format == .pcap {
                if length >= snapshotLength, let fp = pcap_file(handle) {
                    // libpcap may have cut a record longer than the snapshot length and
                    // skipped the rest: the stream knows where the record ended.
                    nextRecordOffset = Int64(ftello(fp))
                    fileOffset = nextRecordOffset - Int64(length)
                } else {
                    fileOffset = nextRecordOffset + 16
                    nextRecordOffset += 16 + Int64(length)
                }
            }
            // pcapng timestamps are 64-bit counts of any resolution: seconds beyond what
            // microseconds in an Int64 hold (±292,000 years) are damage, not a time.
            let (scaled, overflow) = Int64(h.ts.tv_sec).multipliedReportingOverflow(by: 1_000_000)
            let (micros, overflow2) = scaled.addingReportingOverflow(Int64(h.ts.tv_usec))
            if overflow || overflow2 {
                return .malformed(index: index, fileOffset: fileOffset.map { $0 - 16 }, line: nil,
                                  DecodeError(.pcap, .invalidValue, at: 0,
                                              "timestamp \(h.ts.tv_sec) s is beyond the representable range (±292,000 years)"))
            }
            // Lent where libpcap read it: valid until the next `pcap_next_ex`.
            body(RecordView(
                index: index, timestampMicros: micros, encapsulation: .pcap(linkType),
                bytes: Span(_unsafeBytes: data.map { UnsafeRawBufferPointer(start: $0, count: length) } ?? UnsafeRawBufferPointer(start: nil, count: 0)),
                originalLength: Int(h.len), fileOffset: fileOffset))
            return .record
        case PCAP_ERROR_BREAK:
            done = true
            return .end
        default:
            done = true
            index += 1
            let message = String(cString: pcap_geterr(handle))
            let code: DecodeError.Code = message.contains("truncated") ? .truncated : .invalidValue
            let field = format == .pcap ? Self.faultyField(libpcapMessage: message) : 0
            var fileOffset: Int64? = nil
            if format == .pcap { fileOffset = nextRecordOffset + Int64(field) }
            return .malformed(index: index, fileOffset: fileOffset, line: nil,
                              DecodeError(.pcap, code, at: field, "libpcap: \(message)"))
        }
    }

    /// The offset in a classic-pcap record header (ts_sec 0, ts_usec 4, incl_len 8,
    /// orig_len 12; libpcap's `pcap_next_ex` and the pcap file format, section 4) of the field
    /// libpcap's error is about: the captured length for a length it refuses or one that runs
    /// past the file ("invalid packet capture length", "tried to read N captured bytes"), the
    /// first field not read for a header cut short ("tried to read 16 header bytes, only got
    /// M"), else the header's start.
    static func faultyField(libpcapMessage message: String) -> Int {
        if message.contains("capture length") || message.contains("captured bytes") { return 8 }
        if message.contains("header bytes"), let got = message.split(separator: " ").last.flatMap({ Int($0) }), (0..<16).contains(got) {
            return got / 4 * 4
        }
        return 0
    }
}
