/// A capture file as the reference decoder reads it (``CaptureFile/decoded()``): a sequence
/// of owned advertisement values, with the file's record counts and faults.
public struct DecodedCapture: Sendable, Hashable, Sequence {
    /// Every advertisement, with or without AD data, in record order.
    public var advertisements: [CapturedAdvertisement]
    /// How the file's records were accounted for: read = decoded + ignored + malformed.
    public var records: RecordCounts
    /// Every fault, located to the record and byte, in the order found.
    public var issues: [CaptureIssue]

    /// Every beacon frame of the capture, in record order (each knows its record).
    public var beacons: [Beacon] { advertisements.flatMap(\.beacons) }

    /// Iterates over ``advertisements``.
    public func makeIterator() -> IndexingIterator<[CapturedAdvertisement]> { advertisements.makeIterator() }
}
