import CPcap
import NearbyBytes
import NearbySystem

/// Reads pcap and pcapng files through libpcap (`pcap_open_offline_with_tstamp_precision`,
/// `pcap_next_ex`), with microsecond timestamps whatever the file's precision.
///
/// Classic pcap: each record is checked against the header after it before it is lent, so
/// that a header which is not plausible (DAMAGE-3) can still unmask a wrong length in the
/// record before it (DAMAGE-7, DAMAGE-8). That header is read where libpcap will read it
/// when it is in the stream's buffer with its record's bytes, else once libpcap has read
/// it, the record held back (copied) meanwhile; `readRun` lends on while the next header
/// and record are in the buffer, from the buffer itself when libpcap would hand the record
/// on as the file holds it (PcapFileReader+LookAhead.swift). Past damage, libpcap
/// reads on from the next plausible record: its stream is moved there (`fseeko`), libpcap
/// keeping the file header it read. File offsets are exact. pcapng: libpcap checks each
/// block's framing (its length at both ends) and gives up at a damaged block; the reader
/// walks the blocks beside it (`PcapngBlockWalker`), so that each packet gets its file
/// offset, a block of a type no writer uses is reported as damage, and libpcap reads on
/// past a damaged block, or past the bytes up to the next well-framed blocks
/// (PcapFileReader+Pcapng.swift).
public final class PcapFileReader: CaptureRecordReader {
    public let format: CaptureFormat
    public let linkType: LinkType

    public var encapsulationDescription: String { "\(format.rawValue) LINKTYPE \(linkType)" }

    let path: String
    let handle: OpaquePointer
    /// The stream libpcap reads (`pcap_file`), where the look-ahead reads the next header.
    let stream: StdioStream.Pointer?
    /// The stream's buffer (freed once the stream is closed).
    let streamBuffer: UnsafeMutablePointer<CChar>
    /// The file's snapshot length: a record this long may have been cut by libpcap (which
    /// then skips the rest of the record's bytes in the file: PCAP-6).
    public let snapshotLength: Int
    // Only `read` touches the reader's state, and a reader is used by one thread at a time
    // (it is not Sendable).
    @exclusivity(unchecked) var index = 0
    var done = false
    /// Where the next classic-pcap record header starts: the file header is 24 bytes and a
    /// record is its 16-byte header and `caplen` bytes (counted here rather than asked of
    /// the stream; asked only when libpcap may have cut the record to the snapshot length).
    @exclusivity(unchecked) var nextRecordOffset: Int64 = 24
    /// The classic-pcap record read but not yet lent, and its bytes.
    @exclusivity(unchecked) var held: Held?
    /// Allocated at the first record held (an initial value would leak when `init` throws).
    @exclusivity(unchecked) var heldBytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) var heldCount = 0
    /// The last record lent: what a record found past damage should follow in time.
    @exclusivity(unchecked) var lastLent: ProbedRecord?
    /// A record checked against the next header in the stream's buffer, to lend at the next
    /// `read` (`bufferedRecord`) from libpcap's buffer, valid until libpcap reads again.
    @exclusivity(unchecked) var approved: (record: Held, bytes: UnsafeRawBufferPointer)?
    /// The record libpcap reads next, when the record just lent was read by the look-ahead's
    /// rule and its successor's header and bytes are in the stream's buffer, plausible and
    /// following it (`bufferedRecord`): what `readRun` lends without the checks of `read`.
    @exclusivity(unchecked) var buffered: ProbedRecord?
    /// Classic pcap's record header layout, for reading the next header in the stream's
    /// buffer and for the scan; nil when it cannot be known (pcapng, a pipe).
    var headerLayout: HeaderLayout?
    /// Whether `readRun` may lend a record where it lies in the stream's buffer and step the
    /// stream past it, without `pcap_next_ex`: true when libpcap would hand on the file's
    /// header fields and bytes unchanged, that is for classic pcap 2.4 (libpcap swaps the
    /// lengths of earlier versions) of a Bluetooth link type (it rewrites pseudo-headers
    /// only of USB, NFLOG, Linux SLL and PFLOG records).
    let lendsFromStreamBuffer: Bool
    /// Whether the look-ahead reads the next header in the stream's buffer at all
    /// (`StdioStream.canLendBuffer`); else each record is held until libpcap has read the
    /// next one.
    let looksAheadInStreamBuffer: Bool
    /// What the next `read`s report, in order, before reading on: damage found after a
    /// record lent, or pcapng blocks found damaged before the packet `pendingPacket`.
    var pendingSteps: [CaptureReadStep] = []
    /// A pcapng packet libpcap returned after blocks reported as damage: lent once they are.
    var pendingPacket: (metadata: RecordMetadata, bytes: UnsafeRawBufferPointer)?
    /// The time of the file's first record when a run of plausible records starts there
    /// (µs): what a resynchronisation prefers records not to be long before. Set with `scan`.
    var earliestMicros: Int64?
    /// The scan for the next plausible classic-pcap record, set up at the first damage; nil
    /// when the file cannot be read at an offset (a pipe) or its header is not classic pcap.
    lazy var scan: Resynchronizer? = makeScan()
    /// pcapng: the blocks beside libpcap (nil when the file cannot be read at an offset),
    /// and the file offset of the block after the last packet libpcap returned.
    var pcapngWalker: PcapngBlockWalker?
    var blockEnd: Int64 = 0

    /// The stdio buffer of the stream libpcap reads (bytes).
    static let streamBufferSize = 1 << 18
    /// Records longer than this are taken for a corrupt length (libpcap's own limit for
    /// Bluetooth link types: PCAP-9).
    static let maximumRecordLength: UInt32 = 1 << 18
    /// Original lengths above this are taken for damage (Wireshark's bound, 128 MiB: PCAP-10).
    static let maximumOriginalLength: UInt32 = 1 << 27

    /// A record read from libpcap and not yet lent (its bytes copied, or still in libpcap's
    /// buffer).
    struct Held {
        var index: Int
        var record: ProbedRecord
        var originalLength: Int
    }

    public init(path: String, format: CaptureFormat) throws(CaptureFileError) {
        self.path = path
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        // The stream is opened here, rather than by `pcap_open_offline`, to give it a
        // buffer of `streamBufferSize` before libpcap reads from it.
        let streamBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.streamBufferSize)
        let stream: StdioStream.Pointer
        do {
            stream = try StdioStream.open(path, buffer: streamBuffer, size: Self.streamBufferSize)
        } catch {
            streamBuffer.deallocate()
            throw CaptureFileError(path: path, code: .unreadable, reason: "cannot open: \(error)")
        }
        headerLayout = format == .pcap ? HeaderLayout(stream: stream) : nil
        guard let h = pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errbuf)
        else {
            StdioStream.close(stream)  // libpcap closes the stream only once it has taken it
            streamBuffer.deallocate()
            throw CaptureFileError(
                path: path, code: .badHeader,
                reason: "libpcap: "
                    + String(decoding: errbuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = h
        self.stream = pcap_file(h)
        self.streamBuffer = streamBuffer
        snapshotLength = Int(pcap_snapshot(h))
        self.format = format
        linkType = LinkType(rawValue: UInt32(bitPattern: pcap_datalink(h)))
        lendsFromStreamBuffer =
            StdioStream.canLendBuffer && headerLayout?.isVersion2_4(of: stream) == true
            && Self.libpcapHandsOnUnchanged(linkType)
        looksAheadInStreamBuffer = StdioStream.canLendBuffer
        if format == .pcapng {
            pcapngWalker = FileWindow(path: path).map { PcapngBlockWalker(window: $0) }
            blockEnd = StdioStream.offset(pcap_file(h))
        }
    }

    deinit {
        pcap_close(handle)  // closes the stream, which used `streamBuffer` until then
        streamBuffer.deallocate()
        if heldBytes.baseAddress != nil { heldBytes.deallocate() }
    }

    public func read(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        buffered = nil
        if !pendingSteps.isEmpty { return pendingSteps.removeFirst() }
        if let (metadata, bytes) = pendingPacket {
            pendingPacket = nil
            body(RecordView(metadata, bytes: Span(_unsafeBytes: bytes)))
            return .record
        }
        if let (record, bytes) = approved {
            approved = nil
            lend(record, bytes: bytes, body)
            return .record
        }
        guard !done else { return .end }
        while true {
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let rc = pcap_next_ex(handle, &header, &data)
            if let step = take(rc, header: header, data: data, body) { return step }
        }
    }

    /// Handles what `pcap_next_ex` returned (`rc`, and the header and data it read): lends a
    /// record, holds it (nil: read on), or says what went wrong.
    func take(
        _ rc: Int32, header: UnsafeMutablePointer<pcap_pkthdr>?, data: UnsafePointer<UInt8>?,
        _ body: (borrowing RecordView) -> Void
    ) -> CaptureReadStep? {
        if rc == 1 {
            let h = header!.pointee
            let length = Int(h.caplen)
            // pcapng timestamps are 64-bit counts of any resolution: seconds beyond what
            // microseconds in an Int64 hold (±292,000 years) are damage, not a time (PCAPNG-6).
            let (scaled, overflow) = Int64(h.ts.tv_sec).multipliedReportingOverflow(by: 1_000_000)
            let (micros, overflow2) = scaled.addingReportingOverflow(Int64(h.ts.tv_usec))
            let bytes = UnsafeRawBufferPointer(
                start: data.map { UnsafeRawPointer($0) }, count: data == nil ? 0 : length)
            guard format == .pcap else {
                return takePacket(h, bytes: bytes, micros: overflow || overflow2 ? nil : micros, body)
            }
            let start = nextRecordOffset
            if length >= snapshotLength, let fp = pcap_file(handle) {
                // libpcap may have cut a record longer than the snapshot length and
                // skipped the rest: the stream knows where the record ended.
                nextRecordOffset = StdioStream.offset(fp)
            } else {
                nextRecordOffset += 16 + Int64(length)
            }
            let record = ProbedRecord(start: start, end: nextRecordOffset, timestampMicros: micros)
            let problem: DecodeError?
            // PCAP-7, PCAP-8, PCAP-10: a header that is not plausible (DAMAGE-3).
            if overflow || overflow2 || h.ts.tv_usec >= 1_000_000 || h.ts.tv_usec < 0 {
                problem = DecodeError(
                    .pcap, .invalidValue, at: 4, "timestamp fraction \(h.ts.tv_usec) µs is not under a second")
            } else if h.caplen == 0 {
                problem = DecodeError(.pcap, .invalidValue, at: 8, "captured length 0: a record holds at least 1 byte")
            } else if h.caplen > h.len || h.len > Self.maximumOriginalLength {
                problem = DecodeError(
                    .pcap, .invalidValue, at: 12,
                    "original length \(h.len) is not between the captured length \(h.caplen) and "
                        + "\(Self.maximumOriginalLength)"
                )
            } else {
                problem = nil
            }
            if let held {
                // DAMAGE-7: the record held is lent once the header after it is plausible and
                // follows it (DAMAGE-5).
                if problem == nil && record.follows(held.record) {
                    lendHeld(body)
                    if bufferedRecord(after: record) != nil {
                        index += 1
                        approved = (Held(index: index, record: record, originalLength: Int(h.len)), bytes)
                    } else {
                        hold(record, bytes: bytes, originalLength: Int(h.len))
                    }
                    return .record
                }
                let nextProblem =
                    problem
                    ?? DecodeError(
                        .pcap, .invalidValue, at: 0,
                        "timestamp \(micros) µs is not within a day of the record before "
                            + "(\(held.record.timestampMicros ?? 0) µs)"
                    )
                return lookAheadFailed(
                    body, next: problem == nil ? (record, bytes, Int(h.len)) : nil, nextProblem: nextProblem)
            }
            if let problem { return recover(at: start, problem) }
            return lendOrHold(record, bytes: bytes, originalLength: Int(h.len), body) ? .record : nil
        }
        if rc == PCAP_ERROR_BREAK {
            if format == .pcapng, !done, let step = trailingBlocks() { return step }
            done = true
            if held != nil {
                lendHeld(body)
                return .record
            }
            return .end
        }
        // PCAP-9, PCAP-11, PCAPNG-9, PCAPNG-12: what libpcap refuses.
        let message = String(cString: pcap_geterr(handle))
        let code: DecodeError.Code = message.contains("truncated") ? .truncated : .invalidValue
        guard format == .pcap else {
            return recoverPcapng(DecodeError(.pcap, code, at: 0, "libpcap: \(message)"))
        }
        let field = Self.faultyField(libpcapMessage: message)
        let problem = DecodeError(.pcap, code, at: field, "libpcap: \(message)")
        if held != nil { return lookAheadFailed(body, next: nil, nextProblem: problem) }
        return recover(at: nextRecordOffset, problem)
    }

    /// Copies a record read from libpcap, to lend it once the header after it is read.
    func hold(_ record: ProbedRecord, bytes: UnsafeRawBufferPointer, originalLength: Int) {
        index += 1
        held = Held(index: index, record: record, originalLength: originalLength)
        if heldBytes.count < bytes.count || heldBytes.baseAddress == nil {
            if heldBytes.baseAddress != nil { heldBytes.deallocate() }
            heldBytes = .allocate(byteCount: max(bytes.count, 2 * heldBytes.count, 4096), alignment: 16)
        }
        if let base = bytes.baseAddress { heldBytes.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        heldCount = bytes.count
    }

    func lendHeld(_ body: (borrowing RecordView) -> Void) {
        guard let h = held else { return }
        held = nil
        lend(h, bytes: UnsafeRawBufferPointer(rebasing: heldBytes[..<heldCount]), body)
    }

    /// The offset in a classic-pcap record header (ts_sec 0, ts_usec 4, incl_len 8,
    /// orig_len 12; libpcap's `pcap_next_ex` and PCAP-9, PCAP-11) of the field
    /// libpcap's error is about: the captured length for a length it refuses or one that runs
    /// past the file ("invalid packet capture length", "tried to read N captured bytes"), the
    /// first field not read for a header cut short ("tried to read 16 header bytes, only got
    /// M"), else the header's start.
    static func faultyField(libpcapMessage message: String) -> Int {
        if message.contains("capture length") || message.contains("captured bytes") { return 8 }
        if message.contains("header bytes"), let got = message.split(separator: " ").last.flatMap({ Int($0) }),
            (0..<16).contains(got)
        {
            return got / 4 * 4
        }
        return 0
    }
}
