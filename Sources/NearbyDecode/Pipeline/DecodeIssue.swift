import NearbyBytes

/// A fault found while decoding a capture, located for people: file, record, byte
/// offset, reason.
public struct DecodeIssue: Sendable, CustomStringConvertible {
    public var file: String
    public var record: Int
    /// File offset of the record's first byte, when the container tells it exactly.
    public var recordFileOffset: Int64?
    /// Line number, for hex text.
    public var line: Int?
    public var error: DecodeError
    /// True when `error.offset` is an offset in data reassembled from several reports
    /// rather than in the record.
    public var inReassembledData: Bool

    public init(
        file: String, record: Int, recordFileOffset: Int64?, line: Int?, error: DecodeError,
        inReassembledData: Bool = false
    ) {
        self.file = file
        self.record = record
        self.recordFileOffset = recordFileOffset
        self.line = line
        self.error = error
        self.inReassembledData = inReassembledData
    }

    /// `FILE: record N[, line L][, byte B of the file] (offset O in the record): layer/code: reason`
    public var description: String {
        var where_ = "record \(record)"
        if let line { where_ += ", line \(line)" }
        if inReassembledData {
            where_ += " (offset \(error.offset) in the reassembled advertising data)"
        } else {
            if let base = recordFileOffset { where_ += ", byte \(base + Int64(error.offset)) of the file" }
            where_ += " (offset \(error.offset) in the record)"
        }
        return "\(file): \(where_): \(error.key): \(error.reason)"
    }
}
