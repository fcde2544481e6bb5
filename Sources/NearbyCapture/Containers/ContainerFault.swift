import NearbyBytes

/// Damage a container reader found: a record it cannot frame, or a stretch of bytes it
/// passed over to reach the next plausible record (DAMAGE-16). It counts as one record
/// read (RECORDS-3).
public struct ContainerFault: Hashable, Sendable {
    /// The number of the record it stands for, counted with the records lent (1-based).
    public var index: Int
    /// File offset of the field at fault (`error.offset` bytes into the record), when the
    /// container lets us know it.
    public var fileOffset: Int64?
    /// 1-based line, for text captures.
    public var line: Int?
    public var error: DecodeError
    /// The bytes passed over to reach the next plausible record (or the end of the file),
    /// when the reader resynchronises; readers that cannot end the file here.
    public var skipped: SkippedBytes?

    public init(index: Int, fileOffset: Int64?, line: Int? = nil, _ error: DecodeError, skipped: SkippedBytes? = nil) {
        (self.index, self.fileOffset, self.line, self.error, self.skipped) = (index, fileOffset, line, error, skipped)
    }

    /// A fault not yet numbered: the reader numbers it when it reports it (`ReaderCore`).
    init(at fileOffset: Int64?, line: Int? = nil, _ error: DecodeError, skipped: SkippedBytes? = nil) {
        self.init(index: 0, fileOffset: fileOffset, line: line, error, skipped: skipped)
    }
}
