/// Bytes of a capture file that a reader passed over because no plausible record lies in
/// them (DAMAGE-16): the damage, as a half-open range of file offsets.
public struct SkippedBytes: Hashable, Sendable, CustomStringConvertible {
    /// File offsets of the bytes skipped (`upperBound` is where reading went on, or the
    /// file's size).
    public var range: Range<Int64>
    /// True when reading went on at `range.upperBound` (a resynchronisation); false when no
    /// plausible record followed and the rest of the file was skipped.
    public var resynchronized: Bool

    public init(range: Range<Int64>, resynchronized: Bool) {
        self.range = range
        self.resynchronized = resynchronized
    }

    /// Bytes skipped.
    public var count: Int64 { range.upperBound - range.lowerBound }

    /// `skipped bytes 100..<350 (250 bytes); reading went on at byte 350`, or `…; no
    /// plausible record follows`.
    public var description: String {
        let what = "skipped bytes \(range.lowerBound)..<\(range.upperBound) (\(count) byte\(count == 1 ? "" : "s"))"
        return resynchronized
            ? "\(what); reading went on at byte \(range.upperBound)" : "\(what); no plausible record follows"
    }
}
