import Dispatch
import NearbySystem
import Synchronization

/// A capture that arrives on a pipe (`-` for standard input, `/dev/stdin`, a FIFO), copied as
/// it comes into a temporary file in `$TMPDIR` (else `/tmp`), so that it can be read like a
/// file: libpcap, and resynchronisation after damage, read at offsets, which a pipe cannot
/// do. The copy is gone when this object is (`TemporaryFile`).
///
/// For btsnoop and classic pcap, the copier also hands on, as they come, the records a reader
/// of the whole file lends unchanged (`RecordFramer`): each batch as a small capture file of
/// its own, the file header and those records (a `Segment`). The rest of the capture is read
/// from the whole copy once the pipe has ended (`Item.end`). RECORDS-11.
///
/// Shared by the copier and the reader: the copier alone writes `spool`, and the reader opens
/// it by path only after `end`; the queue is behind a lock.
final class PipeInput: @unchecked Sendable {
    /// A batch of released records, as a capture file of its own.
    struct Segment: @unchecked Sendable {
        /// The file: the capture's file header and the records. Read it while this lives.
        let file: TemporaryFile
        /// How many records come before the first one of the segment.
        let recordsBefore: Int
        /// What to add to an offset in the segment to make it an offset in the capture.
        let offsetShift: Int64
    }

    /// What the copier hands on, in order.
    enum Item: Sendable {
        case segment(Segment)
        /// The pipe has ended and the whole copy is in place: read it, skipping the records
        /// the segments held.
        case end
        /// The pipe could not be read or copied before anything was handed on.
        case failed(CaptureFileError)
    }

    /// The copy of everything read so far; its path opens the whole capture after `end`.
    let spool: TemporaryFile
    /// The name the user gave the pipe.
    let source: String
    private let items = Mutex<(queue: [Item], abandoned: Bool)>(([], false))
    /// Signalled once for each item queued.
    private let ready = DispatchSemaphore(value: 0)
    /// Room for segments cut and not yet taken: the copier waits when `segmentsAhead` are, so
    /// that a pipe faster than its reader holds that many files open, not one per megabyte.
    private let room = DispatchSemaphore(value: PipeInput.segmentsAhead)
    /// How many segments may wait to be read.
    static let segmentsAhead = 8

    /// Opens `source` (`-` for standard input) and starts copying it on a thread of its own.
    init(source: String) throws(CaptureFileError) {
        self.source = source
        let shown = source == "-" ? "standard input" : source
        let input: FileDescriptor
        do {
            input =
                source == "-"
                ? try FileDescriptor.standardInput.duplicate()
                : try FileDescriptor.open(source, .readOnly, options: .closeOnExec)
        } catch {
            throw CaptureFileError(path: source, code: .unreadable, reason: "cannot open: \(error)")
        }
        let folder = Environment.temporaryFolder
        do {
            spool = try TemporaryFile(in: folder, prefix: "nearby-input", reopenable: true)
        } catch {
            try? input.close()
            throw CaptureFileError(
                path: source, code: .unreadable,
                reason: "cannot make a temporary copy of \(shown) in \(folder): \(error)")
        }
        DispatchQueue(label: "nearby-conformance.pipe-input").async { [self] in
            defer { try? input.close() }
            copy(from: input, shown: shown, folder: folder)
        }
    }

    /// The next item, waiting for the copier.
    func next() -> Item {
        ready.wait()
        let item = items.withLock { $0.queue.removeFirst() }
        if case .segment = item { room.signal() }
        return item
    }

    /// Segments cut and not yet taken (at most `segmentsAhead`).
    var segmentsWaiting: Int {
        items.withLock { $0.queue.count { if case .segment = $0 { true } else { false } } }
    }

    /// Nobody reads any more: the copier stops at its next read.
    ///
    /// Gives back every slot the copier can hold, the segments waiting and the one it may be
    /// waiting to queue, so that `room` ends no lower than it began (libdispatch traps when
    /// a semaphore is released below its initial value).
    func abandon() {
        items.withLock { $0.abandoned = true }
        for _ in 0...Self.segmentsAhead { room.signal() }
    }

    /// The most bytes released before a segment is cut, though the pipe has more at hand.
    static let segmentLimit = 1 << 20

    /// Runs on the copier's queue: copies the pipe to its end, cutting segments as records are
    /// released.
    private func copy(from input: FileDescriptor, shown: String, folder: String) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        /// The first bytes, until the file header has been looked at.
        var prefix: [UInt8] = []
        var looked = false
        var framer: RecordFramer?
        var cutter = Cutter(folder: folder)
        var total: Int64 = 0
        while !items.withLock({ $0.abandoned }) {
            let n: Int
            do {
                n = try input.read(into: buffer)
            } catch {
                // What came is read; the reader of the whole copy reports a record cut short.
                guard total > 0 else {
                    return publish(
                        .failed(
                            CaptureFileError(path: source, code: .unreadable, reason: "cannot read \(shown): \(error)"))
                    )
                }
                break
            }
            if n == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[..<n])
            do {
                _ = try spool.descriptor.writeAll(bytes)
            } catch {
                return publish(
                    .failed(
                        CaptureFileError(
                            path: source, code: .unreadable, reason: "cannot copy \(shown) to \(folder): \(error)")))
            }
            total += Int64(n)
            if !looked {
                // Until its first 24 bytes have come, the capture's format is not known.
                prefix += bytes
                guard prefix.count >= 24 else { continue }
                looked = true
                framer = RecordFramer(fileHeader: prefix)
                if let framer { cutter.start(after: prefix, framer) }
                prefix = []
            } else {
                guard framer != nil else { continue }
                cutter.pending += bytes
            }
            guard var f = framer, !f.stopped else { continue }
            cutter.pending.withUnsafeBytes { f.advance(in: $0, from: cutter.pendingStart) }
            let atHand = Readiness.wait([input], timeoutMillis: 0) != .timeout
            if let segment = cutter.cut(f, unless: atHand && !f.stopped) { publish(.segment(segment)) }
            framer = f.stopped || cutter.failed ? nil : f
        }
        if let framer, let segment = cutter.cut(framer, unless: false) { publish(.segment(segment)) }
        publish(.end)
    }

    /// Cuts the released records into segments (used by the copier only).
    private struct Cutter {
        let folder: String
        var fileHeader: [UInt8] = []
        /// The bytes not yet in a segment, from file offset `pendingStart`.
        var pending: [UInt8] = []
        var pendingStart: Int64 = 0
        /// Records handed on in segments so far.
        var handedOn = 0
        /// Set when a segment could not be written: the rest is read from the whole copy.
        var failed = false

        init(folder: String) { self.folder = folder }

        /// Starts after the file header at the start of `prefix`.
        mutating func start(after prefix: [UInt8], _ framer: RecordFramer) {
            fileHeader = Array(prefix[..<framer.fileHeaderLength])
            pending = Array(prefix[framer.fileHeaderLength...])
            pendingStart = Int64(framer.fileHeaderLength)
        }

        /// The records `framer` released since the last segment, as a segment: when there
        /// are any, and either they are more than `segmentLimit` bytes or the pipe has
        /// nothing more at hand (`atHand` false). Nil when not, or when the segment cannot be
        /// written (`failed`).
        mutating func cut(_ framer: RecordFramer, unless atHand: Bool) -> Segment? {
            let count = Int(framer.releasedEnd - pendingStart)
            guard count > 0, count >= PipeInput.segmentLimit || !atHand, !failed else { return nil }
            let segment: Segment
            do {
                let file = try TemporaryFile(in: folder, prefix: "nearby-segment", reopenable: true)
                _ = try fileHeader.withUnsafeBytes { try file.descriptor.writeAll($0) }
                _ = try pending.withUnsafeBytes {
                    try file.descriptor.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]))
                }
                segment = Segment(
                    file: file, recordsBefore: handedOn, offsetShift: pendingStart - Int64(fileHeader.count))
            } catch {
                failed = true
                return nil
            }
            handedOn = framer.released
            pending.removeFirst(count)
            pendingStart += Int64(count)
            return segment
        }
    }

    private func publish(_ item: Item) {
        if case .segment = item { room.wait() }
        items.withLock { $0.queue.append(item) }
        ready.signal()
    }

    /// True when `path` is `-` or names something that is not a regular file or a folder
    /// (a pipe, a FIFO, a character device such as `/dev/stdin` on a pipe).
    static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        guard let info = FileInfo.of(path) else { return false }
        return info.kind == .other
    }
}
