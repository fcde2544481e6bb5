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
/// Classic pcap: each record is held back (copied) until the header after it is read, so
/// that a header which is not plausible (docs/damaged-captures.md) can still unmask a
/// wrong length in the record before it. Past damage, libpcap reads on from the next
/// plausible record, handed a stream of the file's header and the bytes from there
/// (`SplicedStream`). File offsets are exact. pcapng: libpcap checks each block's framing
/// (its length at both ends) and gives up at a damaged block; the reader skips it, or the
/// bytes up to the next well-framed blocks, and hands libpcap the section's header blocks
/// and the rest (`PcapngBlockWalker`). Only offsets inside the record are given.
public final class PcapFileReader: CaptureRecordReader {
    public let format: CaptureFormat
    public let linkType: LinkType

    public var encapsulationDescription: String { "\(format.rawValue) LINKTYPE \(linkType)" }

    private let path: String
    private var handle: OpaquePointer
    /// The buffer of the stream libpcap opened first (freed once that stream is closed).
    private var streamBuffer: UnsafeMutablePointer<CChar>?
    /// The file's snapshot length: a record this long may have been cut by libpcap (which
    /// then skips the rest of the record's bytes in the file).
    public let snapshotLength: Int
    // Only `read` touches the reader's state, and a reader is used by one thread at a time
    // (it is not Sendable): no run-time exclusivity check per record.
    @exclusivity(unchecked) private var index = 0
    private var done = false
    /// Where the next classic-pcap record header starts: the file header is 24 bytes and a
    /// record is its 16-byte header and `caplen` bytes (counted here rather than asked of
    /// the stream; asked only when libpcap may have cut the record to the snapshot length).
    @exclusivity(unchecked) private var nextRecordOffset: Int64 = 24
    /// File offset minus stream offset: 0 for the file itself, the resumption point minus
    /// the 24-byte header for a spliced stream.
    private var streamShift: Int64 = 0
    /// The classic-pcap record read but not yet lent, and its bytes.
    @exclusivity(unchecked) private var held: Held?
    /// Allocated at the first record held (an initial value would leak when `init` throws).
    @exclusivity(unchecked) private var heldBytes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    @exclusivity(unchecked) private var heldCount = 0
    /// The last record lent: what a record found past damage should follow in time.
    @exclusivity(unchecked) private var lastLent: ProbedRecord?
    /// What the next `read` reports before reading on: damage found after a record lent.
    private var pendingStep: CaptureReadStep?
    /// The file's first 24 bytes (classic pcap), for splicing, and its byte order; set with
    /// `scan`.
    private var fileHeader: [UInt8] = []
    private var bigEndian = false
    /// The scan for the next plausible classic-pcap record, set up at the first damage; nil
    /// when the file cannot be read at an offset (a pipe) or its header is not classic pcap.
    private lazy var scan: Resynchronizer? = makeScan()
    /// pcapng: the blocks walked so far, where libpcap's stream starts in the file, and the
    /// packets it has returned since.
    private var pcapngWalker: PcapngBlockWalker?
    private var walkStart: Int64 = 0
    private var packetsSinceWalkStart = 0

    /// The stdio buffer of the stream libpcap reads (bytes).
    static let streamBufferSize = 1 << 18
    /// Records longer than this are taken for a corrupt length (libpcap's own limit for
    /// Bluetooth link types).
    static let maximumRecordLength: UInt32 = 1 << 18
    /// Original lengths above this are taken for damage (Wireshark's bound, 128 MiB).
    static let maximumOriginalLength: UInt32 = 1 << 27

    /// A record read from libpcap and not yet lent.
    private struct Held {
        var index: Int
        var record: ProbedRecord
        var originalLength: Int
    }

    public init(path: String, format: CaptureFormat) throws(CaptureFileError) {
        self.path = path
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        // The stream is opened here, rather than by `pcap_open_offline`, to give it a
        // buffer of `streamBufferSize` before libpcap reads from it.
        guard let stream = fopen(path, "rb") else {
            throw CaptureFileError(path: path, reason: "cannot open: \(String(cString: strerror(errno)))")
        }
        // glibc ignores the size unless it is given the buffer too.
        let streamBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Self.streamBufferSize)
        setvbuf(stream, streamBuffer, _IOFBF, Self.streamBufferSize)
        guard let h = pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errbuf)
        else {
            fclose(stream)  // libpcap closes the stream only once it has taken it
            streamBuffer.deallocate()
            throw CaptureFileError(
                path: path,
                reason: "libpcap: "
                    + String(decoding: errbuf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        handle = h
        self.streamBuffer = streamBuffer
        snapshotLength = Int(pcap_snapshot(h))
        self.format = format
        linkType = LinkType(rawValue: UInt32(bitPattern: pcap_datalink(h)))
    }

    deinit {
        pcap_close(handle)  // closes the stream, which used `streamBuffer` until then
        streamBuffer?.deallocate()
        if heldBytes.baseAddress != nil { heldBytes.deallocate() }
    }

    public func read(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        if let step = pendingStep {
            pendingStep = nil
            return step
        }
        guard !done else { return .end }
        while true {
            var header: UnsafeMutablePointer<pcap_pkthdr>?
            var data: UnsafePointer<UInt8>?
            let rc = pcap_next_ex(handle, &header, &data)
            if rc == 1 {
                let h = header!.pointee
                let length = Int(h.caplen)
                // pcapng timestamps are 64-bit counts of any resolution: seconds beyond what
                // microseconds in an Int64 hold (±292,000 years) are damage, not a time.
                let (scaled, overflow) = Int64(h.ts.tv_sec).multipliedReportingOverflow(by: 1_000_000)
                let (micros, overflow2) = scaled.addingReportingOverflow(Int64(h.ts.tv_usec))
                let bytes = UnsafeRawBufferPointer(
                    start: data.map { UnsafeRawPointer($0) }, count: data == nil ? 0 : length)
                guard format == .pcap else {
                    index += 1
                    if overflow || overflow2 {
                        return .malformed(
                            index: index, fileOffset: nil, line: nil,
                            DecodeError(
                                .pcap, .invalidValue, at: 0,
                                "timestamp \(h.ts.tv_sec) s is beyond the representable range (±292,000 years)"),
                            skipped: nil)
                    }
                    // Lent where libpcap read it: valid until the next `pcap_next_ex`.
                    body(
                        RecordView(
                            index: index, timestampMicros: micros, encapsulation: .pcap(linkType),
                            bytes: Span(_unsafeBytes: bytes), originalLength: Int(h.len), fileOffset: nil))
                    packetsSinceWalkStart += 1
                    return .record
                }
                let start = nextRecordOffset
                if length >= snapshotLength, let fp = pcap_file(handle) {
                    // libpcap may have cut a record longer than the snapshot length and
                    // skipped the rest: the stream knows where the record ended.
                    nextRecordOffset = Int64(ftello(fp)) + streamShift
                } else {
                    nextRecordOffset += 16 + Int64(length)
                }
                let record = ProbedRecord(start: start, end: nextRecordOffset, timestampMicros: micros)
                let problem: DecodeError?
                if overflow || overflow2 || h.ts.tv_usec >= 1_000_000 || h.ts.tv_usec < 0 {
                    problem = DecodeError(
                        .pcap, .invalidValue, at: 4, "timestamp fraction \(h.ts.tv_usec) µs is not under a second")
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
                    if problem == nil && record.follows(held.record) {
                        lendHeld(body)
                        hold(record, bytes: bytes, originalLength: Int(h.len))
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
                hold(record, bytes: bytes, originalLength: Int(h.len))
                continue
            }
            if rc == PCAP_ERROR_BREAK {
                done = true
                if held != nil {
                    lendHeld(body)
                    return .record
                }
                return .end
            }
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
    }

    /// Copies a record read from libpcap, to lend it once the header after it is read.
    private func hold(_ record: ProbedRecord, bytes: UnsafeRawBufferPointer, originalLength: Int) {
        index += 1
        held = Held(index: index, record: record, originalLength: originalLength)
        if heldBytes.count < bytes.count || heldBytes.baseAddress == nil {
            if heldBytes.baseAddress != nil { heldBytes.deallocate() }
            heldBytes = .allocate(byteCount: max(bytes.count, 2 * heldBytes.count, 4096), alignment: 16)
        }
        if let base = bytes.baseAddress { heldBytes.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        heldCount = bytes.count
    }

    private func lendHeld(_ body: (borrowing RecordView) -> Void) {
        guard let h = held else { return }
        held = nil
        lastLent = h.record
        body(
            RecordView(
                index: h.index, timestampMicros: h.record.timestampMicros, encapsulation: .pcap(linkType),
                bytes: Span(_unsafeBytes: UnsafeRawBufferPointer(rebasing: heldBytes[..<heldCount])),
                originalLength: h.originalLength, fileOffset: h.record.start + 16))
    }

    private func makeScan() -> Resynchronizer? {
        guard let window = FileWindow(path: path), let raw = window.bytes(at: 0, count: 24) else { return nil }
        fileHeader = Array(raw)
        let magic = UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))
        let nanoseconds: Bool
        switch magic {
        case 0xa1b2_c3d4: (bigEndian, nanoseconds) = (false, false)
        case 0xa1b2_3c4d: (bigEndian, nanoseconds) = (false, true)
        case 0xd4c3_b2a1: (bigEndian, nanoseconds) = (true, false)
        case 0x4d3c_b2a1: (bigEndian, nanoseconds) = (true, true)
        default: return nil
        }
        let bigEndian = bigEndian
        return Resynchronizer(window: window, headerLength: 16) { window, offset in
            guard let seconds = window.integer(UInt32.self, at: offset, bigEndian: bigEndian),
                let fraction = window.integer(UInt32.self, at: offset + 4, bigEndian: bigEndian),
                let included = window.integer(UInt32.self, at: offset + 8, bigEndian: bigEndian),
                let original = window.integer(UInt32.self, at: offset + 12, bigEndian: bigEndian),
                fraction < (nanoseconds ? 1_000_000_000 : 1_000_000),
                included <= Self.maximumRecordLength, original >= included, original <= Self.maximumOriginalLength
            else { return nil }
            let micros = Int64(seconds) * 1_000_000 + Int64(nanoseconds ? fraction / 1000 : fraction)
            return ProbedRecord(start: offset, end: offset + 16 + Int64(included), timestampMicros: micros)
        }
    }

    /// The header after the held record is not plausible, or does not follow it (`next`
    /// is the record there when it is plausible by itself). Lends the held record and goes
    /// on when it is whole; reports it malformed when its length runs past a plausible
    /// record.
    private func lookAheadFailed(
        _ body: (borrowing RecordView) -> Void,
        next: (ProbedRecord, UnsafeRawBufferPointer, Int)?,
        nextProblem: DecodeError
    ) -> CaptureReadStep {
        let held = held!
        guard let scan else {
            // No resynchronisation: lend the held record, and the next one as libpcap read it.
            lendHeld(body)
            if let (record, bytes, original) = next {
                hold(record, bytes: bytes, originalLength: original)
            } else {
                index += 1
                done = true
                pendingStep = .malformed(
                    index: index, fileOffset: held.record.end + Int64(nextProblem.offset), line: nil,
                    nextProblem, skipped: nil)
            }
            return .record
        }
        if next != nil, scan.runStarts(at: held.record.end) {
            // A step in the clock, not damage: the records from here on agree with each other.
            let (record, bytes, original) = next!
            lendHeld(body)
            hold(record, bytes: bytes, originalLength: original)
            return .record
        }
        let resume = scan.firstRun(after: held.record.start, anchor: held.record)
        if let resume, resume < held.record.end {
            self.held = nil
            let skip = goOn(skipping: held.record.start, to: resume, size: scan.size)
            return .malformed(
                index: held.index, fileOffset: held.record.start + 8, line: nil,
                DecodeError(
                    .pcap, .invalidValue, at: 8,
                    "record header: captured length \(held.record.end - held.record.start - 16) runs past the next "
                        + "plausible record, at byte \(resume); \(skip)"
                ),
                skipped: skip)
        }
        lendHeld(body)
        index += 1
        let skip = goOn(skipping: held.record.end, to: resume, size: scan.size)
        pendingStep = .malformed(
            index: index, fileOffset: skip.range.lowerBound + Int64(nextProblem.offset), line: nil,
            DecodeError(
                .pcap, nextProblem.code, at: nextProblem.offset, "record header: \(nextProblem.reason); \(skip)"),
            skipped: skip)
        return .record
    }

    /// The malformed step for a damaged record header at `start` (with no record held),
    /// reading on at the record's end when a run starts there, else at the next run, else
    /// ending the file.
    private func recover(at start: Int64, _ problem: DecodeError) -> CaptureReadStep {
        index += 1
        let fault = { (skip: SkippedBytes?) -> CaptureReadStep in
            .malformed(
                index: self.index, fileOffset: start + Int64(problem.offset), line: nil,
                DecodeError(
                    .pcap, problem.code, at: problem.offset,
                    problem.reason + (skip.map { "; \($0)" } ?? "")),
                skipped: skip)
        }
        guard let scan else {
            done = true
            return fault(nil)
        }
        var resume: Int64?
        if let included = scan.window.integer(UInt32.self, at: start + 8, bigEndian: bigEndian),
            included > 0, included <= Self.maximumRecordLength,
            start + 16 + Int64(included) < scan.size, scan.runStarts(at: start + 16 + Int64(included), after: lastLent)
        {
            resume = start + 16 + Int64(included)
        } else {
            resume = scan.firstRun(after: start, anchor: lastLent)
        }
        return fault(goOn(skipping: start, to: resume, size: scan.size))
    }

    /// pcapng: libpcap gave up (`problem`) at the block after the last packet it returned.
    /// The block is skipped exactly when its framing holds (its content was damaged), else
    /// the bytes up to the next run of well-framed blocks; libpcap then reads on from there,
    /// after the Section Header and Interface Description Blocks in force.
    private func recoverPcapng(_ problem: DecodeError) -> CaptureReadStep {
        index += 1
        let fault = { (at: Int64?, skip: SkippedBytes?) -> CaptureReadStep in
            .malformed(
                index: self.index, fileOffset: at, line: nil,
                DecodeError(
                    .pcap, problem.code, at: 0,
                    problem.reason + (at.map { " (block at byte \($0))" } ?? "") + (skip.map { "; \($0)" } ?? "")),
                skipped: skip)
        }
        done = true
        if pcapngWalker == nil { pcapngWalker = FileWindow(path: path).map { PcapngBlockWalker(window: $0) } }
        guard var walker = pcapngWalker,
            let (bad, framed) = walker.walk(from: walkStart, packets: packetsSinceWalkStart)
        else {
            return fault(nil, nil)
        }
        let scan = Resynchronizer(window: walker.window, headerLength: 12) { [walker] window, offset in
            walker.probe(window, at: offset)
        }
        var resume: Int64?
        if framed, let block = walker.block(at: bad), bad + block.length < scan.size,
            scan.runStarts(at: bad + block.length)
        {
            resume = bad + block.length
        } else {
            resume = scan.firstRun(after: bad, anchor: nil)
        }
        pcapngWalker = walker
        let skip = goOn(skipping: bad, to: resume, size: scan.size, prefix: walker.prefix)
        walkStart = skip.range.upperBound
        packetsSinceWalkStart = 0
        return fault(bad, skip)
    }

    /// The bytes skipped from `start`: up to `resume` when libpcap reads on from there, else
    /// (no resumption point, or libpcap refuses the stream) to the end of the file, which
    /// then ends.
    private func goOn(skipping start: Int64, to resume: Int64?, size: Int64, prefix: [UInt8]? = nil) -> SkippedBytes {
        if let resume, restart(at: resume, prefix: prefix) {
            return SkippedBytes(range: start..<resume, resynchronized: true)
        }
        done = true
        return SkippedBytes(range: start..<size, resynchronized: false)
    }

    /// Hands libpcap the file's header (`prefix`) and the bytes from `offset` on; false when
    /// that cannot be done.
    private func restart(at offset: Int64, prefix: [UInt8]? = nil) -> Bool {
        let prefix = prefix ?? fileHeader
        #if canImport(Glibc)
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let stream = SplicedStream.open(path: path, prefix: prefix, from: offset) else { return false }
        guard let h = pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errbuf)
        else {
            fclose(stream)  // libpcap closes the stream only once it has taken it
            return false
        }
        pcap_close(handle)
        streamBuffer?.deallocate()
        streamBuffer = nil
        handle = h
        streamShift = offset - Int64(prefix.count)
        nextRecordOffset = offset
        done = false
        return true
        #else
        return false
        #endif
    }

    /// The offset in a classic-pcap record header (ts_sec 0, ts_usec 4, incl_len 8,
    /// orig_len 12; libpcap's `pcap_next_ex` and the pcap file format, section 4) of the field
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
