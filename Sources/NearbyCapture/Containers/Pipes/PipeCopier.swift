import Dispatch
import NearbySystem
import Synchronization

/// The thread that copies a pipe for `PipeInput`: it appends what arrives to the whole copy,
/// cuts the records `RecordFramer` releases into segments, and hands them on through a queue
/// of at most `PipeInput.segmentsAhead` segments, then `end` (RECORDS-11).
///
/// Shared by the copier's thread and the reader's: the queue is behind a lock, and the rest
/// is the copier's alone.
final class PipeCopier: @unchecked Sendable {
    typealias Item = PipeInput.Item
    typealias Segment = PipeInput.Segment

    let source: String
    private let items = Mutex<(queue: [Item], abandoned: Bool)>(([], false))
    /// Signalled once for each item queued.
    private let ready = DispatchSemaphore(value: 0)
    /// Room for segments cut and not yet taken: the copier waits when `segmentsAhead` wait.
    private let room = DispatchSemaphore(value: PipeInput.segmentsAhead)

    init(source: String) { self.source = source }

    /// The next item, waiting for the copier.
    func next() -> Item {
        ready.wait()
        let item = items.withLock { $0.queue.removeFirst() }
        if case .segment = item { room.signal() }
        return item
    }

    /// Segments cut and not yet taken.
    var segmentsWaiting: Int {
        items.withLock { $0.queue.count { if case .segment = $0 { true } else { false } } }
    }

    /// Nobody reads any more: the copier stops at its next read, and the segments waiting, and
    /// any cut later, are dropped (their files go at once).
    ///
    /// Gives back every slot the copier can hold, the segments waiting and the one it may be
    /// waiting to queue, so that `room` ends no lower than it began (libdispatch traps when
    /// a semaphore is released below its initial value).
    func abandon() {
        let dropped = items.withLock { state -> [Item] in
            state.abandoned = true
            defer { state.queue = [] }
            return state.queue
        }
        for _ in 0...PipeInput.segmentsAhead { room.signal() }
        // The dropped segments' files go here, with `dropped`, outside the lock.
        _ = dropped
    }

    /// The most bytes released before a segment is cut, though the pipe has more at hand.
    static let segmentLimit = 1 << 20

    /// Runs on the copier's queue: copies the pipe to its end, cutting segments as records are
    /// released.
    func copy(from input: FileDescriptor, to spool: FileDescriptor, shown: String, folder: String) {
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
                _ = try spool.writeAll(bytes)
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
            guard count > 0, count >= PipeCopier.segmentLimit || !atHand, !failed else { return nil }
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
        // Once nobody reads, an item is dropped here (a segment's file goes with it).
        let queued = items.withLock { state -> Bool in
            guard !state.abandoned else { return false }
            state.queue.append(item)
            return true
        }
        if queued { ready.signal() }
    }
}
