import NearbyDecode

/// How a capture's records were accounted for (docs/spec/containers.md, RECORDS-1):
/// every record read is decoded, ignored or malformed.
public struct RecordCounts: Sendable, Hashable {
    /// Records the container gave.
    public var read: Int
    /// Records that carried an advertisement and decoded cleanly.
    public var decoded: Int
    /// Records that carry no advertisement (other HCI traffic), by design.
    public var ignored: Int
    /// Records with a fault anywhere (container, link layer, report, AD data, beacon frame).
    public var malformed: Int
    /// Bytes passed over to find the next plausible record after damage.
    public var skippedBytes: Int64
    /// Times reading resumed after damage.
    public var resynchronizations: Int

    /// Makes counts (an implementation under test answers with these).
    public init(
        read: Int, decoded: Int, ignored: Int, malformed: Int, skippedBytes: Int64 = 0, resynchronizations: Int = 0
    ) {
        self.read = read
        self.decoded = decoded
        self.ignored = ignored
        self.malformed = malformed
        self.skippedBytes = skippedBytes
        self.resynchronizations = resynchronizations
    }

    init(_ a: DecodeAccounting) {
        read = a.recordsRead
        decoded = a.decoded
        ignored = a.ignored
        malformed = a.malformed
        skippedBytes = a.bytesSkipped
        resynchronizations = a.resynchronizations
    }
}
