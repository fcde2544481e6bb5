/// Finds where reading can go on after a damaged record: the first offset at which a run of
/// consecutive plausible records starts (DAMAGE-10 to DAMAGE-13).
///
/// A run is `runLength` records, each plausible by itself (the container's `probe`) and
/// following the one before (`ProbedRecord.follows`), the first following the last good
/// record read (the anchor) when there is one. Near the end of the file a run may be
/// shorter, but never under two records: records reaching exactly the end, or records and
/// then the end inside a record the file cut short. (One record alone is too easily faked:
/// a pcap header read 4 bytes late is often plausible. So one whole record alone between
/// damage and the end of the file is skipped with the damage.)
///
/// Runs are looked for in three tiers, each over the rest of the file: runs following the
/// anchor; then runs none of whose records is earlier than the file's first good record by
/// more than `ProbedRecord.backwardToleranceMicros` (`earliest`); then any run. A header read
/// from the wrong offset inside zeroed or shifted bytes has a time decades away from the
/// file's, so a true record boundary wins over it in the first two tiers.
struct Resynchronizer {
    /// Records in a run (4, DAMAGE-10): false starts inside record data have to fake four headers in a
    /// row, lengths and timestamps agreeing.
    static let runLength = 4

    let window: FileWindow
    /// The fewest bytes a record header takes (btsnoop 24, pcap 16, pcapng 12).
    let headerLength: Int
    /// The record at an offset, when the header there is plausible by itself and whole.
    let probe: (FileWindow, Int64) -> ProbedRecord?

    var size: Int64 { window.size }

    /// True when a run starts at `offset`, its first record following `anchor` if given and
    /// none of its records more than a day before `earliest` (µs) if given.
    func runStarts(at offset: Int64, after anchor: ProbedRecord? = nil, earliest: Int64? = nil) -> Bool {
        var at = offset
        var previous = anchor
        var whole = 0
        for _ in 0..<Self.runLength {
            if at == size { return whole >= 2 }
            if size - at < Int64(headerLength) { return whole >= 2 }
            guard let record = probe(window, at), previous.map({ record.follows($0) }) ?? true,
                !record.isLongBefore(earliest)
            else { return false }
            if record.end > size { return whole >= 2 }
            whole += 1
            at = record.end
            previous = record
        }
        return true
    }

    /// DAMAGE-11, DAMAGE-12: the first offset after `offset` (exclusive) at which a run starts, or nil when none
    /// does before the end of the file: a run that follows `anchor` first; when there is
    /// none (the clock stepped, or jumped, at the damage), a run that is not long before
    /// `earliest` (µs, the time of the file's first good record); then any run.
    ///
    /// A run found is a candidate, not yet the answer: a run that starts inside its first
    /// record, and that is the better chain of records (`isBetter`), wins over it. (Bytes
    /// copied from elsewhere in the file, or a header read a few bytes off, can start a run
    /// that holds up for a while through a lucky alignment.)
    func firstRun(after offset: Int64, anchor: ProbedRecord?, earliest: Int64? = nil) -> Int64? {
        bestRun(after: offset, anchor: anchor, earliest: earliest)?.offset
    }

    /// DAMAGE-7, DAMAGE-8: where reading goes on when the header after `record` (whole in
    /// the file, plausible, read) fails: the run `firstRun(after:anchor:earliest:)` finds
    /// after the record's first octet, with `record` as the anchor (`anchored`; else none).
    /// When that run starts inside the record (its length then lies), the reading in which
    /// the record is whole and damage follows it, the best run after the record's end,
    /// wins when it is found in an earlier tier or is the better chain (`isBetter`): bytes
    /// inside one record that copy headers from elsewhere in the file can make a chain as
    /// well as a length that lies can.
    func resumption(after record: ProbedRecord, anchored: Bool, earliest: Int64? = nil) -> Int64? {
        let anchor = anchored ? record : nil
        guard let inside = bestRun(after: record.start, anchor: anchor, earliest: earliest) else { return nil }
        guard inside.offset < record.end,
            let beyond = bestRun(after: record.end - 1, anchor: anchor, earliest: earliest)
        else { return inside.offset }
        if beyond.tier != inside.tier { return beyond.tier < inside.tier ? beyond.offset : inside.offset }
        return Self.isBetter(beyond.chain, than: inside.chain) ? beyond.offset : inside.offset
    }

    /// What the bytes after `record` are, when the header after it is not plausible or does
    /// not follow it and `record` is whole in the file (DAMAGE-7 to DAMAGE-9).
    enum Resumption: Equatable {
        /// A step in the clock, not damage: reading goes on at the record's end (DAMAGE-9).
        case clockStep
        /// The record's length lies: it runs into the run that starts at `resume` (DAMAGE-7).
        case lengthLies(resume: Int64)
        /// The record is whole and damage follows it, up to `resume`, or to the end of the
        /// file when nil (DAMAGE-8).
        case damageFollows(resume: Int64?)
    }

    /// The one decision for a whole record whose next header fails, for every container:
    /// a step in the clock when a run starts at its end and none better inside that run
    /// (`clockSteps`), else where `resumption(after:anchored:earliest:)` goes on, the
    /// record as the anchor.
    func resume(afterWhole record: ProbedRecord, earliest: Int64?) -> Resumption {
        if clockSteps(at: record.end, after: record, earliest: earliest) { return .clockStep }
        let next = resumption(after: record, anchored: true, earliest: earliest)
        if next == record.end { return .clockStep }
        if let next, next < record.end { return .lengthLies(resume: next) }
        return .damageFollows(resume: next)
    }

    /// DAMAGE-9 with DAMAGE-12: whether reading goes on at `offset`, the end of `record`
    /// whose next header does not follow it, as a step in the clock: a run starts there, and
    /// no run that follows `record` and starts inside that run's first record is the better
    /// chain (`isBetter`). (Damage that shifts the rest of the file by a few bytes makes the
    /// headers read at the old offsets a chain of their own, their times taken from other
    /// fields: a step in the clock that the true records, a few bytes on, outdo.)
    func clockSteps(at offset: Int64, after record: ProbedRecord, earliest: Int64?) -> Bool {
        guard runStarts(at: offset, earliest: earliest) else { return false }
        let step = chain(from: offset, after: nil, earliest: earliest)
        return betterRun(than: step, at: offset, anchor: record, earliest: earliest) == nil
    }

    /// A run `bestRun` found: its offset, its chain, and the tier it was found in (0: it
    /// follows the anchor; 1: it is not long before `earliest`; 2: any run).
    private struct Run {
        var offset: Int64
        var chain: Chain
        var tier: Int
    }

    /// `firstRun(after:anchor:earliest:)` with the chain and tier of the run found.
    private func bestRun(after offset: Int64, anchor: ProbedRecord?, earliest: Int64?) -> Run? {
        var tiers: [(Int, ProbedRecord?, Int64?)] = anchor == nil ? [] : [(0, anchor, earliest)]
        tiers.append((1, nil, earliest))
        if earliest != nil { tiers.append((2, nil, nil)) }
        for (tier, anchor, earliest) in tiers {
            guard let found = scan(after: offset, anchor: anchor, earliest: earliest) else { continue }
            let first = chain(from: found, after: anchor, earliest: earliest)
            let better = betterRun(than: first, at: found, anchor: anchor, earliest: earliest)
            return Run(offset: better?.offset ?? found, chain: better?.chain ?? first, tier: tier)
        }
        return nil
    }

    /// DAMAGE-12: the run, starting inside the first record of `chain` (which starts at
    /// `start`), that reads the bytes better than `chain` (`isBetter`), each candidate
    /// weighed against the best one so far; nil when none does. Candidate runs follow
    /// `anchor` when given and are not long before `earliest`.
    private func betterRun(
        than chain: Chain, at start: Int64, anchor: ProbedRecord?, earliest: Int64?
    ) -> (offset: Int64, chain: Chain)? {
        var best: (offset: Int64, chain: Chain)?
        let end = min(chain.first?.end ?? start, size - Int64(headerLength) + 1)
        var candidate = start + 1
        while candidate < end {
            if runStarts(at: candidate, after: anchor, earliest: earliest) {
                let other = self.chain(from: candidate, after: anchor, earliest: earliest)
                if Self.isBetter(other, than: best?.chain ?? chain) { best = (candidate, other) }
            }
            candidate += 1
        }
        return best
    }

    /// The chain of records from `offset`: each plausible by itself and following the one
    /// before (the first following `anchor` when given), none long before `earliest`, up to
    /// `chainLimit` records; the flag says whether it held to the limit or to the exact end
    /// of the file.
    private func chain(from offset: Int64, after anchor: ProbedRecord?, earliest: Int64?) -> Chain {
        var records: [ProbedRecord] = []
        var at = offset
        var previous = anchor
        while records.count < Self.chainLimit {
            if at == size { return Chain(records: records, holds: true) }
            guard size - at >= Int64(headerLength), let record = probe(window, at),
                previous.map({ record.follows($0) }) ?? true, !record.isLongBefore(earliest), record.end <= size
            else { return Chain(records: records, holds: false) }
            records.append(record)
            at = record.end
            previous = record
        }
        return Chain(records: records, holds: true)
    }

    /// Records a candidate chain is followed for (256).
    static let chainLimit = 256

    /// A chain of records from a candidate offset (`chain(from:after:earliest:)`).
    struct Chain {
        var records: [ProbedRecord]
        /// True when the chain held to `chainLimit` records or to the exact end of the file.
        var holds: Bool
        var first: ProbedRecord? { records.first }
    }

    /// Whether chain `a` is the better reading of the bytes than chain `b`: when they meet
    /// (a record of each starts at the same offset), the one with more records before that
    /// offset (a true chain has a record at every boundary, a false one jumps over records);
    /// else the one that holds when the other breaks; else the one whose clock moves less
    /// per record (a header read at the wrong offset takes its time from other fields).
    /// False on a tie: the earlier candidate stays.
    static func isBetter(_ a: Chain, than b: Chain) -> Bool {
        let starts = Set(b.records.map(\.start))
        if let meet = a.records.first(where: { starts.contains($0.start) })?.start {
            return a.records.prefix { $0.start < meet }.count > b.records.prefix { $0.start < meet }.count
        }
        if a.holds != b.holds { return a.holds }
        if !a.holds && a.records.count != b.records.count { return a.records.count > b.records.count }
        let n = min(a.records.count, b.records.count)
        return n > 1 && drift(a.records.prefix(n)) < drift(b.records.prefix(n))
    }

    /// The sum of the time steps between consecutive records (µs), saturating; 0 without times.
    private static func drift(_ records: ArraySlice<ProbedRecord>) -> Int64 {
        var total: Int64 = 0
        for (p, r) in zip(records, records.dropFirst()) {
            guard let t = r.timestampMicros, let u = p.timestampMicros else { return 0 }
            let (step, o1) = t.subtractingReportingOverflow(u)
            let (sum, o2) = total.addingReportingOverflow(o1 ? .max : step.magnitude > Int64.max ? .max : abs(step))
            total = o2 ? .max : sum
        }
        return total
    }

    private func scan(after offset: Int64, anchor: ProbedRecord?, earliest: Int64?) -> Int64? {
        var candidate = offset + 1
        while size - candidate >= Int64(headerLength) {
            if runStarts(at: candidate, after: anchor, earliest: earliest) { return candidate }
            candidate += 1
        }
        return nil
    }
}
