import NearbyDecode

/// A fault found while decoding a capture: the record is counted malformed and decoding goes
/// on (docs/damaged-captures.md).
public struct CaptureIssue: Sendable, Hashable, CustomStringConvertible {
    /// The capture's path, as given.
    public var file: String
    /// The record, from 1.
    public var record: Int
    /// The byte of the file where the fault is, when the container tells the record's place.
    public var fileOffset: Int64?
    /// The fault: its `layer/code`, its offset in the record (or in reassembled extended
    /// advertising data) and its reason.
    public var fault: DecodeFault
    /// The line as the `decode` command reports it on standard error.
    public var description: String

    init(_ issue: DecodeIssue) {
        file = issue.file
        record = issue.record
        fileOffset =
            issue.inReassembledData ? nil : issue.recordFileOffset.map { $0 + Int64(issue.error.offset) }
        fault = DecodeFault(code: issue.error.key, offset: issue.error.offset, reason: issue.error.reason)
        description = issue.description
    }
}
