import NearbyBytes

/// Reads a capture from a pipe as it arrives (`PipeInput`): the records of each segment as
/// soon as it is cut, renumbered and placed in the whole capture, then the rest from the
/// whole copy once the pipe has ended, its reader first passing over the steps the segments
/// gave. The steps are those a reader of a file holding the same bytes gives (RECORDS-11).
final class PipeReader: CaptureRecordReader {
    private let input: PipeInput
    /// The reader of the current segment, or of the whole copy; nil at the end.
    private var inner: (any CaptureRecordReader)?
    /// The current segment (kept so that its file lives while it is read); nil once the
    /// whole copy is read.
    private var segment: PipeInput.Segment?
    /// Steps the segments gave: what the reader of the whole copy passes over.
    private var stepsGiven = 0

    let format: CaptureFormat
    let encapsulationDescription: String

    /// Opens `source` and reads on until the first segment or the end of the pipe. Throws as
    /// `CaptureFile.open` does for a file holding what the pipe held.
    init(source: String) throws(CaptureFileError) {
        let input = try PipeInput(source: source)
        let first: (reader: any CaptureRecordReader, segment: PipeInput.Segment?)
        do {
            first = try Self.open(input.next(), of: input)
        } catch {
            input.abandon()
            throw error
        }
        self.input = input
        (inner, segment) = first
        (format, encapsulationDescription) = (first.reader.format, first.reader.encapsulationDescription)
    }

    deinit { input.abandon() }

    /// Segments the copier has cut that wait to be read.
    var segmentsWaiting: Int { input.segmentsWaiting }

    /// The reader of `item`, with its segment.
    private static func open(
        _ item: PipeInput.Item, of input: PipeInput
    ) throws(CaptureFileError) -> (reader: any CaptureRecordReader, segment: PipeInput.Segment?) {
        do throws(CaptureFileError) {
            switch item {
            case .segment(let s): return (try CaptureFile.open(s.file.path!), s)
            case .end: return (try CaptureFile.open(input.spool.path!), nil)
            case .failed(let error): throw error
            }
        } catch {
            throw CaptureFileError(path: input.source, code: error.code, reason: error.reason)
        }
    }

    func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        while let reader = inner {
            guard let segment else { return reader.read(body) }
            let step = reader.read { record in
                stepsGiven += 1
                var m = record.metadata
                m.index += segment.recordsBefore
                m.fileOffset = m.fileOffset.map { $0 + segment.offsetShift }
                return body(RecordView(m, bytes: record.bytes))
            }
            switch step {
            case .record: return .record
            case .malformed(var fault):
                // Not expected: a segment holds only records its reader lends as they are.
                stepsGiven += 1
                fault.index += segment.recordsBefore
                let shift = segment.offsetShift
                fault.fileOffset = fault.fileOffset.map { $0 + shift }
                if let s = fault.skipped {
                    fault.skipped = SkippedBytes(
                        range: (s.range.lowerBound + shift)..<(s.range.upperBound + shift),
                        resynchronized: s.resynchronized)
                }
                return .malformed(fault)
            case .end:
                if let failure = nextSource() { return failure }
            }
        }
        return .end
    }

    /// Moves on to the next segment, or to the whole copy, past the steps already given; the
    /// fault that ends the capture when the pipe could not be copied on.
    private func nextSource() -> CaptureReadStep? {
        let opened: (reader: any CaptureRecordReader, segment: PipeInput.Segment?)
        do {
            opened = try Self.open(input.next(), of: input)
        } catch {
            inner = nil
            segment = nil
            // Only btsnoop and classic pcap are cut into segments.
            let layer: DecodeError.Layer = format == .btsnoop ? .btsnoop : .pcap
            return .malformed(
                ContainerFault(
                    index: stepsGiven + 1, fileOffset: nil,
                    DecodeError(layer, .truncated, at: 0, "the rest of the capture is lost: \(error.reason)")))
        }
        (inner, segment) = opened
        guard segment == nil else { return nil }
        var passed = 0
        while passed < stepsGiven, let reader = inner {
            let wanted = stepsGiven - passed
            var lent = 0
            switch reader.read({ _ in
                lent += 1
                return lent < wanted
            }) {
            case .record: passed += lent
            case .malformed: passed += 1
            case .end: inner = nil
            }
        }
        return nil
    }
}
