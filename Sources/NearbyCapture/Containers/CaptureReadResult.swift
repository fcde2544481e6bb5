/// What `CaptureRecordReader.read(_:)` did.
public enum CaptureReadStep: Sendable {
    /// The last thing read was a record, lent to the closure.
    case record
    /// The container is damaged here (an implausible header, a length that overruns the
    /// file…); the closure was not called for it.
    case malformed(ContainerFault)
    /// The end of the file.
    case end
}

/// What `CaptureRecordReader.next()` yields: a record (a copy), or a record the container
/// itself cannot frame.
public enum CaptureReadResult: Sendable {
    case record(CaptureRecord)
    case malformed(ContainerFault)
}

/// A stream of records from one capture file, in file order.
public protocol CaptureRecordReader: AnyObject {
    var format: CaptureFormat { get }
    /// What the records are: the link type or datalink, for people.
    var encapsulationDescription: String { get }
    /// Reads on, lending each record to `body`, its bytes still in the reader's buffer (no
    /// copy, no reference count; the view is valid only during the call), while `body`
    /// returns true and the next record is at hand (no fault, no wait). Returns the step that
    /// ended: `.record` after a record (`body` returned false, or the next one is not at
    /// hand), or a malformed record or the end, which come after every record lent before
    /// them. Whatever `body` returns, the records and steps, in order, are the same.
    func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep
}

extension CaptureRecordReader {
    /// The next record as a value of its own (its bytes copied), or nil at the end of the
    /// file: for callers that keep records.
    public func next() -> CaptureReadResult? {
        var record: CaptureRecord?
        switch read({
            record = CaptureRecord(copying: $0)
            return false
        }) {
        case .record: return .record(record!)
        case .malformed(let fault): return .malformed(fault)
        case .end: return nil
        }
    }
}

/// A reader that reads one record or fault at a time (`step`): its `read` steps on.
protocol SteppingReader: AnyObject {
    /// Lends the next record to `body`, or reports what failed, or the end.
    func step(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep
}

extension SteppingReader {
    /// `CaptureRecordReader.read(_:)`: steps on while records are lent and `body` returns
    /// true.
    @inline(__always)
    func readSteps(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        var more = true
        while true {
            let next = step { more = body($0) }
            guard case .record = next, more else { return next }
        }
    }
}
