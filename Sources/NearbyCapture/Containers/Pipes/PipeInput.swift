import Dispatch
import NearbySystem

/// A capture that arrives on a pipe (`-` for standard input, `/dev/stdin`, a FIFO), copied as
/// it comes into a temporary file in `$TMPDIR` (else `/tmp`), so that it can be read like a
/// file: libpcap, and resynchronisation after damage, read at offsets, which a pipe cannot
/// do. The copy is gone when this object is (`TemporaryFile`).
///
/// For btsnoop and classic pcap, the copier also hands on, as they come, the records a reader
/// of the whole file lends unchanged (`RecordFramer`): each batch as a small capture file of
/// its own, the file header and those records (a `Segment`). The rest of the capture is read
/// from the whole copy once the pipe has ended (`Item.end`). RECORDS-11.
final class PipeInput {
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

    /// The copy of everything read so far; its path opens the whole capture after `end`. Its
    /// name goes with this object, whatever the copier is doing (it writes through a
    /// descriptor of its own).
    let spool: TemporaryFile
    /// The name the user gave the pipe.
    let source: String
    private let copier: PipeCopier
    /// How many segments may wait to be read: a pipe faster than its reader holds that many
    /// files open, not one per megabyte.
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
        let copy: FileDescriptor
        do {
            copy = try spool.descriptor.duplicate()
        } catch {
            try? input.close()
            throw CaptureFileError(path: source, code: .unreadable, reason: "cannot copy \(shown): \(error)")
        }
        let copier = PipeCopier(source: source)
        self.copier = copier
        DispatchQueue(label: "nearby-conformance.pipe-input").async {
            defer {
                try? input.close()
                try? copy.close()
            }
            copier.copy(from: input, to: copy, shown: shown, folder: folder)
        }
    }

    deinit { copier.abandon() }

    /// The next item, waiting for the copier.
    func next() -> Item { copier.next() }

    /// Segments cut and not yet taken (at most `segmentsAhead`).
    var segmentsWaiting: Int { copier.segmentsWaiting }

    /// Nobody reads any more: the copier stops at its next read, and drops its segments.
    func abandon() { copier.abandon() }

    /// True when `path` is `-` or names something that is not a regular file or a folder
    /// (a pipe, a FIFO, a character device such as `/dev/stdin` on a pipe).
    static func isStream(_ path: String) -> Bool {
        if path == "-" { return true }
        guard let info = FileInfo.of(path) else { return false }
        return info.kind == .other
    }
}
