/// Everything about a captured record but its bytes: where it stands in the capture, when it
/// was captured and how its bytes are framed. `RecordView` (lent) and `CaptureRecord` (owned)
/// pair it with the bytes.
public struct RecordMetadata: Hashable, Sendable {
    /// 1-based record number (Wireshark's frame number; for hex text, the n-th data line).
    public var index: Int
    /// Microseconds since the Unix epoch; nil when the container has no time (hex text).
    public var timestampMicros: Int64?
    public var encapsulation: Encapsulation
    /// The record's length on the wire, bytes; larger than the bytes captured when the capture
    /// was cut to a snapshot length.
    public var originalLength: Int
    /// File offset of the record's first byte, when the container lets us know it exactly.
    public var fileOffset: Int64?
    /// 1-based line number, for text captures.
    public var line: Int?

    public init(
        index: Int, timestampMicros: Int64?, encapsulation: Encapsulation, originalLength: Int,
        fileOffset: Int64? = nil, line: Int? = nil
    ) {
        self.index = index
        self.timestampMicros = timestampMicros
        self.encapsulation = encapsulation
        self.originalLength = originalLength
        self.fileOffset = fileOffset
        self.line = line
    }
}
