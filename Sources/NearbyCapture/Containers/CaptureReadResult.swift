import NearbyBytes

/// What `CaptureRecordReader.read(_:)` did with one step through the file.
public enum CaptureReadStep: Sendable {
    /// A record was read and lent to the closure.
    case record
    /// The container is damaged at this record (an implausible header, a length that
    /// overruns the file…); the closure was not called. `skipped` names the bytes passed
    /// over to reach the next plausible record (or the end of the file), when the reader
    /// resynchronises; readers that cannot end the file here.
    indirect case malformed(index: Int, fileOffset: Int64?, line: Int?, DecodeError, skipped: SkippedBytes?)
    /// The end of the file.
    case end
}

/// What `CaptureRecordReader.next()` yields: a record (a copy), or a record the container
/// itself cannot frame.
public enum CaptureReadResult: Sendable {
    case record(CaptureRecord)
    /// The container is damaged at this record (`CaptureReadStep.malformed`).
    case malformed(index: Int, fileOffset: Int64?, line: Int?, DecodeError, skipped: SkippedBytes?)
}

/// A stream of records from one capture file, in file order.
public protocol CaptureRecordReader: AnyObject {
    var format: CaptureFormat { get }
    /// What the records are: the link type or datalink, for people.
    var encapsulationDescription: String { get }
    /// Reads the next record and lends it to `body`, its bytes still in the reader's buffer
    /// (no copy, no reference count): the decode path. The view is valid only during the
    /// call.
    func read(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep
    /// Reads as `read` does, then on while the next record is at hand (no fault, no wait),
    /// lending each record to `body`, and returns the step that ended the run: `.record`
    /// after a record, or a malformed record or the end, which come after every record lent
    /// before them. The records and steps, in order, are those that `read` gives one at a
    /// time. For readers that count records in `body` (`CaptureDecoder`).
    func readRun(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep
}

extension CaptureRecordReader {
    /// A run of one record: `read`.
    public func readRun(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep { read(body) }

    /// The next record as a value of its own (its bytes copied), or nil at the end of the
    /// file: for callers that keep records.
    public func next() -> CaptureReadResult? {
        var record: CaptureRecord?
        switch read({ record = CaptureRecord(copying: $0) }) {
        case .record: return .record(record!)
        case .malformed(let index, let fileOffset, let line, let error, let skipped):
            return .malformed(index: index, fileOffset: fileOffset, line: line, error, skipped: skipped)
        case .end: return nil
        }
    }
}
