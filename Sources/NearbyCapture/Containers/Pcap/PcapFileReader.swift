import CPcap
import NearbyBytes
import NearbySystem

/// Reads classic pcap files through libpcap (`LibpcapFile`), with microsecond timestamps
/// whatever the file's precision, and lends each record by one route (`lend`).
///
/// A record is lent once the header after it is plausible and follows it, so
/// that a header which is not (DAMAGE-3) can still unmask a wrong length in the record
/// before it (DAMAGE-7, DAMAGE-8). The next header is read in the stream's window when it
/// is there with its record's bytes; otherwise libpcap reads the next record and the one
/// before waits, copied (`held`). A record whose successor is in the window too is lent
/// where it lies in the window, the window stepped past it, when libpcap would hand it on
/// unchanged (`lendsInPlace`). Past damage, libpcap reads on from the next plausible record
/// (`Resynchronizer`): its stream is moved there, libpcap keeping the file header it read.
/// File offsets are exact.
public final class PcapFileReader: CaptureRecordReader {
    public var format: CaptureFormat { .pcap }
    public let linkType: LinkType
    /// The file's snapshot length (PCAP-6).
    public var snapshotLength: Int { file.snapshotLength }
    public var encapsulationDescription: String { "\(format.rawValue) LINKTYPE \(linkType)" }

    let path: String
    let file: LibpcapFile
    /// The record header layout; nil for a file header of other magic (libpcap reads
    /// more), where records are neither looked at in the window nor resynchronised.
    let layout: PcapRecordHeader.Layout?
    /// Whether a record may be lent where it lies in the window: libpcap would hand on its
    /// header fields and bytes unchanged, that is for classic pcap 2.4 (libpcap swaps the
    /// lengths of earlier versions) of a Bluetooth link type (it rewrites pseudo-headers only
    /// of USB, NFLOG, Linux SLL and PFLOG records), and the window is not plain.
    let lendsInPlace: Bool

    // A reader is used by one thread at a time (it is not Sendable).
    @exclusivity(unchecked) var core = ReaderCore()
    /// Set when libpcap has nothing more to read.
    var done = false
    /// Where the next record header starts (the file header is 24 bytes, a
    /// record its 16-byte header and `caplen` bytes: PCAP-5).
    @exclusivity(unchecked) var nextOffset: Int64 = 24
    /// The record read by libpcap and not yet lent (its bytes in `heldBytes`).
    @exclusivity(unchecked) var held: (record: ProbedRecord, originalLength: Int)?
    @exclusivity(unchecked) var heldBytes: [UInt8] = []
    /// The record at `nextOffset` when it was checked as the successor of the record lent in
    /// place before it: the next in-place lend need not read its header again.
    @exclusivity(unchecked) var verified: ProbedRecord?
    /// The last record lent: what a record found past damage should follow in time.
    @exclusivity(unchecked) var lastLent: ProbedRecord?
    /// The time of the file's first record when a run of plausible records starts there
    /// (µs): what a resynchronisation prefers records not to be long before. Set with `scan`.
    var earliestMicros: Int64?
    /// The scan for the next plausible record, set up at the first damage; nil when the file
    /// cannot be read at an offset (a pipe) or its record headers are not known.
    lazy var scan: Resynchronizer? = makeScan()

    public init(path: String) throws(CaptureFileError) {
        self.path = path
        let file = try LibpcapFile(path: path)
        var header: UInt64 = 0
        let got = withUnsafeMutableBytes(of: &header) { file.read(at: 0, into: $0) }
        layout = got == 8 ? withUnsafeBytes(of: header) { PcapRecordHeader.Layout(fileHeader: $0) } : nil
        (self.file, linkType) = (file, file.linkType)
        lendsInPlace = !file.window.isPlain && layout?.isVersion2_4 == true && Self.handsOnUnchanged(linkType)
    }

    /// Whether libpcap hands on records of `linkType` as the file holds them: the Bluetooth
    /// link types.
    static func handsOnUnchanged(_ linkType: LinkType) -> Bool {
        switch linkType {
        case .bluetoothHCIH4, .bluetoothHCIH4WithPHDR, .bluetoothLELL, .bluetoothLinuxMonitor,
            .bluetoothLELLWithPHDR, .nordicBLE:
            true
        default: false
        }
    }

    /// Reports the damage found before, else lends the next records: in place while it can
    /// (`lendInPlace`), else through libpcap (`next`).
    public func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        var more = true
        while true {
            if let step = core.reportWaiting() { return step }
            if lendsInPlace && held == nil && !done {
                while lendInPlace({ more = body($0) }) {
                    guard more else { return .record }
                }
            }
            let step = next { more = body($0) }
            guard case .record = step, more else { return step }
        }
    }

    /// Lends the next record once the header after it has passed, or reports what failed.
    func next(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        while true {
            if let held, successor(after: held.record, in: file.window.bytes) != nil {
                lendHeld(body)
                return .record
            }
            if done {
                guard held != nil else { return .end }
                lendHeld(body)
                return .record
            }
            switch file.next() {
            case .packet(let h, let bytes):
                let header = PcapRecordHeader(h)
                let start = nextOffset
                // libpcap cuts a record longer than the snapshot length and skips the rest:
                // the stream knows where the record ended.
                nextOffset = Int(h.caplen) >= file.snapshotLength ? file.offset : start + 16 + Int64(h.caplen)
                let record = ProbedRecord(start: start, end: nextOffset, timestampMicros: header.timestampMicros)
                let fault = header.fault
                guard let held else {
                    if let fault { return recover(at: start, fault) }
                    hold(record, originalLength: Int(h.len), bytes)
                    continue
                }
                if fault == nil && record.follows(held.record) {
                    lendHeld(body)
                    hold(record, originalLength: Int(h.len), bytes)
                    return .record
                }
                let nextProblem =
                    fault
                    ?? DecodeError(
                        .pcap, .invalidValue, at: 0,
                        "timestamp \(header.timestampMicros) µs is not within a day of the record before "
                            + "(\(held.record.timestampMicros ?? 0) µs)")
                return lookAheadFailed(body, next: fault == nil ? (record, Int(h.len), bytes) : nil, nextProblem)
            case .end:
                done = true
            case .refused(let message):
                let code = LibpcapFile.code(ofRefusal: message)
                let problem = DecodeError(
                    .pcap, code, at: Self.faultyField(libpcapMessage: message), "libpcap: \(message)")
                if held != nil { return lookAheadFailed(body, next: nil, problem) }
                return recover(at: nextOffset, problem)
            }
        }
    }

    /// Lends the record at the start of the window where it lies and steps the window past
    /// it, when it is plausible, whole in the window and shorter than the snapshot length,
    /// and the record after it is in the window and follows it (`successor`): libpcap would
    /// read it next and hand it on unchanged. False otherwise, nothing done.
    @inline(__always)
    func lendInPlace(_ body: (borrowing RecordView) -> Void) -> Bool {
        let window = file.window.bytes
        guard window.count >= 16, let layout, let header = window.baseAddress else { return false }
        let record: ProbedRecord
        if let verified, verified.start == nextOffset {
            record = verified
        } else {
            guard let r = PcapRecordHeader(header, layout: layout).record(at: nextOffset) else { return false }
            record = r
        }
        let length = Int(record.end &- record.start)
        guard length &- 16 < file.snapshotLength, length <= window.count,
            let next = successor(after: record, in: UnsafeRawBufferPointer(rebasing: window[length...]))
        else { return false }
        (verified, nextOffset) = (next, record.end)
        let originalLength = Int(layout.field(12, of: header))
        lend(
            record, originalLength: originalLength, UnsafeRawBufferPointer(start: header + 16, count: length &- 16),
            body)
        file.window.consume(length)
        return true
    }

    /// The record after `record` when `window` (the bytes from its end on) holds its header
    /// and all its bytes, the header is plausible, the record is shorter than the snapshot
    /// length, and it follows `record`: libpcap will read it as it is. Nil otherwise.
    @inline(__always)
    func successor(after record: ProbedRecord, in window: UnsafeRawBufferPointer) -> ProbedRecord? {
        guard window.count >= 16, let layout,
            let next = PcapRecordHeader(window.baseAddress!, layout: layout).record(at: record.end)
        else { return nil }
        let length = Int(next.end - next.start)
        guard length - 16 < file.snapshotLength, length <= window.count, next.follows(record) else { return nil }
        return next
    }

    /// Copies a record libpcap read, to lend once the header after it has passed.
    func hold(_ record: ProbedRecord, originalLength: Int, _ bytes: UnsafeRawBufferPointer) {
        held = (record, originalLength)
        heldBytes.removeAll(keepingCapacity: true)
        heldBytes.append(contentsOf: bytes)
    }

    func lendHeld(_ body: (borrowing RecordView) -> Void) {
        guard let h = held else { return }
        held = nil
        heldBytes.withUnsafeBytes { lend(h.record, originalLength: h.originalLength, $0, body) }
    }

    /// The one route by which a record is lent: from the window, or from `heldBytes`.
    @inline(__always)
    func lend(
        _ record: ProbedRecord, originalLength: Int, _ bytes: UnsafeRawBufferPointer,
        _ body: (borrowing RecordView) -> Void
    ) {
        lastLent = record
        body(
            RecordView(
                RecordMetadata(
                    index: core.number(), timestampMicros: record.timestampMicros, encapsulation: .pcap(linkType),
                    originalLength: originalLength, fileOffset: record.start + 16),
                bytes: Span(_unsafeBytes: bytes)))
    }

    /// The offset in a classic-pcap record header (ts_sec 0, ts_usec 4, incl_len 8,
    /// orig_len 12; libpcap's `pcap_next_ex` and PCAP-9, PCAP-11) of the field libpcap's
    /// error is about: the captured length for a length it refuses or one that runs past
    /// the file ("invalid packet capture length", "tried to read N captured bytes"), the
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
