import NearbyBytes

/// Classic pcap past damage (DAMAGE-6 to DAMAGE-13): the record held when the header after
/// it fails, and the restart past the damaged bytes.
extension PcapFileReader {
    /// The scan over the file's bytes, and `earliestMicros`: the time of the first record
    /// when a run starts there.
    func makeScan() -> Resynchronizer? {
        guard let layout, let window = FileWindow(path: path) else { return nil }
        let scan = Resynchronizer(window: window, headerLength: 16) { window, offset in
            window.bytes(at: offset, count: 16).flatMap {
                PcapRecordHeader($0.baseAddress!, layout: layout).record(at: offset)
            }
        }
        if scan.runStarts(at: 24), let first = scan.probe(window, 24) { earliestMicros = first.timestampMicros }
        return scan
    }

    /// The header after the held record failed (`nextProblem`; `next` is the record there
    /// when it is plausible by itself). Lends the held record and reads on when it is whole;
    /// reports it malformed when its length runs into a plausible record.
    func lookAheadFailed(
        _ body: (borrowing RecordView) -> Void,
        next: (record: ProbedRecord, originalLength: Int, bytes: UnsafeRawBufferPointer)?,
        _ nextProblem: DecodeError
    ) -> CaptureReadStep {
        let held = held!
        guard let scan else {
            // No resynchronisation: lend the held record, and the next one as libpcap read it.
            lendHeld(body)
            if let next {
                hold(next.record, originalLength: next.originalLength, next.bytes)
            } else {
                done = true
                core.faults.append(headerFault(at: held.record.end, nextProblem))
            }
            return .record
        }
        var resume: Int64? = held.record.end
        switch scan.resume(afterWhole: held.record, earliest: earliestMicros) {
        case .clockStep:
            // A step in the clock, not damage: the records from here on agree (DAMAGE-9).
            guard let next else { break }
            lendHeld(body)
            hold(next.record, originalLength: next.originalLength, next.bytes)
            return .record
        case .lengthLies(let at):  // DAMAGE-7: a length that runs into a run
            self.held = nil
            let skip = skip(from: held.record.start, to: at, size: scan.size)
            return core.report(
                ContainerFault(
                    at: held.record.start + 8,
                    DecodeError(
                        .pcap, .invalidValue, at: 8,
                        "record header: captured length \(held.record.end - held.record.start - 16) runs past the "
                            + "next plausible record, at byte \(at); \(skip)"),
                    skipped: skip))
        case .damageFollows(let at):
            resume = at
        }
        // DAMAGE-8: the held record is whole; the bytes after it up to the run are damage.
        lendHeld(body)
        let skip = skip(from: held.record.end, to: resume, size: scan.size)
        core.faults.append(headerFault(at: held.record.end, nextProblem, skipped: skip))
        return .record
    }

    /// The malformed step for a damaged record header at `start` (with no record held),
    /// reading on at the next run (which may be the record's own end), else ending the file
    /// (DAMAGE-6, DAMAGE-11, DAMAGE-13).
    func recover(at start: Int64, _ problem: DecodeError) -> CaptureReadStep {
        var skipped: SkippedBytes?
        if let scan {
            let resume = scan.firstRun(after: start, anchor: lastLent, earliest: earliestMicros)
            skipped = skip(from: start, to: resume, size: scan.size)
        } else {
            done = true
        }
        return core.report(headerFault(at: start, problem, skipped: skipped))
    }

    /// The fault for the record header at `start` that failed (`problem`, at its offset in the
    /// header), with the bytes skipped past it when reading went on (DAMAGE-16).
    func headerFault(at start: Int64, _ problem: DecodeError, skipped: SkippedBytes? = nil) -> ContainerFault {
        ContainerFault(
            at: start + Int64(problem.offset),
            DecodeError(
                .pcap, problem.code, at: problem.offset,
                "record header: \(problem.reason)" + (skipped.map { "; \($0)" } ?? "")),
            skipped: skipped)
    }

    /// The bytes skipped from `start`: up to `resume` when libpcap reads on from there, else
    /// (no resumption point, or the stream cannot be moved) to the end of the file, which
    /// then ends.
    func skip(from start: Int64, to resume: Int64?, size: Int64) -> SkippedBytes {
        let skip = file.skip(from: start, to: resume, size: size)
        (done, verified) = (!skip.resynchronized, nil)
        if skip.resynchronized { nextOffset = skip.range.upperBound }
        return skip
    }
}
