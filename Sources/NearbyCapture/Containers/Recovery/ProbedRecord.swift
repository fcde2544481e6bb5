/// A record header that is plausible by itself, as a resynchronising reader sees it
/// (DAMAGE-2 to DAMAGE-4).
struct ProbedRecord: Equatable {
    /// File offset of the record's first header byte.
    var start: Int64
    /// File offset of the byte after the record's data (may lie past the end of a file cut
    /// inside the record).
    var end: Int64
    /// Capture time (µs since 1970-01-01T00:00:00Z); nil for framing without one (pcapng
    /// blocks).
    var timestampMicros: Int64?
    /// The cumulative drop count (btsnoop); 0 where the container has none.
    var drops: UInt32 = 0

    /// At most this far back in time (1 day, µs) may a record follow the one before it:
    /// merged captures and logs of several controllers step back in time, by seconds.
    static let backwardToleranceMicros: Int64 = 86_400_000_000
    /// At most this far ahead in time (1 day, µs) may a record follow the one before it.
    static let forwardToleranceMicros: Int64 = 86_400_000_000

    /// DAMAGE-5: true when `self` can be the record after `previous`: captured within a day of it,
    /// either way, with no fewer drops. (A header read from the wrong offset, inside record
    /// data or a few bytes off, has a time years away.)
    func follows(_ previous: ProbedRecord) -> Bool {
        guard drops >= previous.drops else { return false }
        guard let t = timestampMicros, let p = previous.timestampMicros else { return true }
        let (low, o1) = p.subtractingReportingOverflow(Self.backwardToleranceMicros)
        let (high, o2) = p.addingReportingOverflow(Self.forwardToleranceMicros)
        return (o1 || t >= low) && (o2 || t <= high)
    }

    /// True when the record was captured more than `backwardToleranceMicros` before
    /// `earliest` (µs; the time of the file's first good record): a header read at the wrong
    /// offset, such as one inside zeroed bytes or a microsecond field read as seconds. False
    /// when either time is unknown.
    func isLongBefore(_ earliest: Int64?) -> Bool {
        guard let t = timestampMicros, let earliest else { return false }
        let (low, overflow) = earliest.subtractingReportingOverflow(Self.backwardToleranceMicros)
        return !overflow && t < low
    }
}
