/// Finds where reading can go on after a damaged record: the first offset at which a run of
/// consecutive plausible records starts (docs/damaged-captures.md, "Resynchronisation").
///
/// A run is `runLength` records, each plausible by itself (the container's `probe`) and
/// following the one before (`ProbedRecord.follows`), the first following the last good
/// record read (the anchor) when there is one. Near the end of the file a run may be
/// shorter, but never under two records: records reaching exactly the end, or records and
/// then the end inside a record the file cut short. (One record alone is too easily faked:
/// a pcap header read 4 bytes late is often plausible.)
struct Resynchronizer {
    /// Records in a run (4): false starts inside record data have to fake four headers in a
    /// row, lengths and timestamps agreeing.
    static let runLength = 4

    let window: FileWindow
    /// The fewest bytes a record header takes (btsnoop 24, pcap 16, pcapng 12).
    let headerLength: Int
    /// The record at an offset, when the header there is plausible by itself and whole.
    let probe: (FileWindow, Int64) -> ProbedRecord?

    var size: Int64 { window.size }

    /// True when a run starts at `offset`, its first record following `anchor` if given.
    func runStarts(at offset: Int64, after anchor: ProbedRecord? = nil) -> Bool {
        var at = offset
        var previous = anchor
        var whole = 0
        for _ in 0..<Self.runLength {
            if at == size { return whole >= 2 }
            if size - at < Int64(headerLength) { return whole >= 2 }
            guard let record = probe(window, at), previous.map({ record.follows($0) }) ?? true else { return false }
            if record.end > size { return whole >= 2 }
            whole += 1
            at = record.end
            previous = record
        }
        return true
    }

    /// The first offset after `offset` (exclusive) at which a run starts, or nil when none
    /// does before the end of the file. Runs that follow `anchor` are looked for first; when
    /// there is none (the clock stepped back, or jumped, at the damage), any run.
    func firstRun(after offset: Int64, anchor: ProbedRecord?) -> Int64? {
        if let anchor, let found = scan(after: offset, anchor: anchor) { return found }
        return scan(after: offset, anchor: nil)
    }

    private func scan(after offset: Int64, anchor: ProbedRecord?) -> Int64? {
        var candidate = offset + 1
        while size - candidate >= Int64(headerLength) {
            if runStarts(at: candidate, after: anchor) { return candidate }
            candidate += 1
        }
        return nil
    }
}
