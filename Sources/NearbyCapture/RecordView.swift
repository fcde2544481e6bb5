/// One record of a capture file, borrowed from the reader that read it: its metadata and its
/// bytes as a `Span` into the reader's buffer (or libpcap's), valid only during the call it is
/// lent to (`CaptureRecordReader.read(_:)`). Reading a file this way copies no record and
/// counts no reference; `CaptureRecord` is the owned form.
public struct RecordView: ~Escapable {
    public let metadata: RecordMetadata
    /// The captured bytes, lent; offset 0 is the record's first byte.
    public let bytes: Span<UInt8>

    @_lifetime(copy bytes)
    public init(_ metadata: RecordMetadata, bytes: Span<UInt8>) {
        self.metadata = metadata
        self.bytes = bytes
    }
}

extension CaptureRecord {
    /// A copy of the borrowed record, to keep.
    public init(copying view: borrowing RecordView) {
        let bytes = view.bytes.withUnsafeBufferPointer { [UInt8]($0) }
        self.init(view.metadata, bytes: bytes[...])
    }

    /// Calls `body` with the record lent as a `RecordView`.
    public func withView<R>(_ body: (borrowing RecordView) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes { raw in try body(RecordView(metadata, bytes: Span(_unsafeBytes: raw))) }
    }
}
