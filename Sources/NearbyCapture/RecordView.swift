/// One record of a capture file, borrowed from the reader that read it: the fields of a
/// `CaptureRecord` with the bytes as a `Span` into the reader's buffer (or libpcap's), valid
/// only during the call it is lent to (`CaptureRecordReader.read(_:)`). Reading a file
/// this way copies no record and counts no reference; `CaptureRecord` is the owned form.
public struct RecordView: ~Escapable {
    // The fields mean what `CaptureRecord`'s of the same names mean.
    public let index: Int
    public let timestampMicros: Int64?
    public let encapsulation: Encapsulation
    /// The captured bytes, lent; offset 0 is the record's first byte.
    public let bytes: Span<UInt8>
    public let originalLength: Int
    public let fileOffset: Int64?
    public let line: Int?

    @_lifetime(copy bytes)
    public init(
        index: Int, timestampMicros: Int64?, encapsulation: Encapsulation, bytes: Span<UInt8>,
        originalLength: Int? = nil, fileOffset: Int64? = nil, line: Int? = nil
    ) {
        self.index = index
        self.timestampMicros = timestampMicros
        self.encapsulation = encapsulation
        self.bytes = bytes
        self.originalLength = originalLength ?? bytes.count
        self.fileOffset = fileOffset
        self.line = line
    }
}

extension CaptureRecord {
    /// A copy of the borrowed record, to keep.
    public init(copying view: borrowing RecordView) {
        let bytes = view.bytes.withUnsafeBufferPointer { [UInt8]($0) }
        self.init(
            index: view.index, timestampMicros: view.timestampMicros, encapsulation: view.encapsulation,
            bytes: bytes[...], originalLength: view.originalLength, fileOffset: view.fileOffset, line: view.line)
    }

    /// Calls `body` with the record lent as a `RecordView`.
    public func withView<R>(_ body: (borrowing RecordView) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw in
            try body(
                RecordView(
                    index: index, timestampMicros: timestampMicros, encapsulation: encapsulation,
                    bytes: Span(_unsafeBytes: raw), originalLength: originalLength,
                    fileOffset: fileOffset, line: line))
        }
    }
}
