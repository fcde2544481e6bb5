import NearbyBytes

/// What a capture reader yields: a record, or a record the container itself cannot frame.
public enum CaptureReadResult: Sendable {
    case record(CaptureRecord)
    /// The container is damaged at this record (truncated header, a length that overruns
    /// the file…). Readers that cannot find the next record after this end the file here.
    case malformed(index: Int, fileOffset: Int64?, line: Int?, DecodeError)
}

/// A stream of records from one capture file. Records are yielded in file order; the
/// bytes of a record are valid until the next call to `next()` reuses the buffer (a
/// caller that keeps them gets a copy, by copy-on-write).
public protocol CaptureRecordReader: AnyObject {
    var format: CaptureFormat { get }
    /// What the records are: the link type or datalink, for people.
    var encapsulationDescription: String { get }
    /// The next record, or nil at the end of the file.
    func next() -> CaptureReadResult?
}
