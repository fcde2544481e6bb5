import CPcap
import NearbyBytes
import NearbySystem

/// Resynchronisation after damage (DAMAGE-6 to DAMAGE-13): the look-ahead that checks each
/// record against the next, and the restart past the damaged bytes.
extension PcapFileReader {
    /// The scan over the file's bytes, and `earliestMicros`: the time of the first record
    /// when a run starts there.
    func makeScan() -> Resynchronizer? {
        guard let window = FileWindow(path: path), let raw = window.bytes(at: 0, count: 24) else { return nil }
        guard let layout = HeaderLayout(magic: UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))) else {
            return nil
        }
        headerLayout = layout
        let scan = Resynchronizer(window: window, headerLength: 16) { window, offset in
            window.bytes(at: offset, count: 16).flatMap { layout.record(header: $0.baseAddress!, at: offset) }
        }
        if scan.runStarts(at: 24), let first = scan.probe(window, 24) { earliestMicros = first.timestampMicros }
        return scan
    }

    /// The header after the held record is not plausible, or does not follow it (`next`
    /// is the record there when it is plausible by itself). Lends the held record and goes
    /// on when it is whole; reports it malformed when its length runs past a plausible
    /// record.
    func lookAheadFailed(
        _ body: (borrowing RecordView) -> Void,
        next: (ProbedRecord, UnsafeRawBufferPointer, Int)?,
        nextProblem: DecodeError
    ) -> CaptureReadStep {
        let held = held!
        guard let scan else {
            // No resynchronisation: lend the held record, and the next one as libpcap read it.
            lendHeld(body)
            if let (record, bytes, original) = next {
                hold(record, bytes: bytes, originalLength: original)
            } else {
                index += 1
                done = true
                pendingSteps.append(
                    .malformed(
                        index: index, fileOffset: held.record.end + Int64(nextProblem.offset), line: nil,
                        nextProblem, skipped: nil))
            }
            return .record
        }
        var resume: Int64?
        if next != nil, scan.clockSteps(at: held.record.end, after: held.record, earliest: earliestMicros) {
            resume = held.record.end
        } else {
            resume = scan.resumption(after: held.record, anchored: true, earliest: earliestMicros)
        }
        if resume == held.record.end, let (record, bytes, original) = next {
            // A step in the clock, not damage: the records from here on agree with each other
            // (DAMAGE-9).
            lendHeld(body)
            hold(record, bytes: bytes, originalLength: original)
            return .record
        }
        if let resume, resume < held.record.end {  // DAMAGE-7: a length that runs into a run
            self.held = nil
            let skip = goOn(skipping: held.record.start, to: resume, size: scan.size)
            return .malformed(
                index: held.index, fileOffset: held.record.start + 8, line: nil,
                DecodeError(
                    .pcap, .invalidValue, at: 8,
                    "record header: captured length \(held.record.end - held.record.start - 16) runs past the next "
                        + "plausible record, at byte \(resume); \(skip)"
                ),
                skipped: skip)
        }
        // DAMAGE-8: the held record is whole; the bytes after it up to the run are damage.
        lendHeld(body)
        index += 1
        let skip = goOn(skipping: held.record.end, to: resume, size: scan.size)
        pendingSteps.append(
            .malformed(
                index: index, fileOffset: skip.range.lowerBound + Int64(nextProblem.offset), line: nil,
                DecodeError(
                    .pcap, nextProblem.code, at: nextProblem.offset, "record header: \(nextProblem.reason); \(skip)"),
                skipped: skip))
        return .record
    }

    /// The malformed step for a damaged record header at `start` (with no record held),
    /// reading on at the next run (which may be the record's own end), else ending the file
    /// (DAMAGE-6, DAMAGE-11, DAMAGE-13).
    func recover(at start: Int64, _ problem: DecodeError) -> CaptureReadStep {
        index += 1
        let fault = { (skip: SkippedBytes?) -> CaptureReadStep in
            .malformed(
                index: self.index, fileOffset: start + Int64(problem.offset), line: nil,
                DecodeError(
                    .pcap, problem.code, at: problem.offset,
                    problem.reason + (skip.map { "; \($0)" } ?? "")),
                skipped: skip)
        }
        guard let scan else {
            done = true
            return fault(nil)
        }
        let resume = scan.firstRun(after: start, anchor: lastLent, earliest: earliestMicros)
        return fault(goOn(skipping: start, to: resume, size: scan.size))
    }

    /// The bytes skipped from `start`: up to `resume` when libpcap reads on from there, else
    /// (no resumption point, or libpcap refuses the stream) to the end of the file, which
    /// then ends.
    func goOn(skipping start: Int64, to resume: Int64?, size: Int64) -> SkippedBytes {
        if let resume, restart(at: resume) {
            return SkippedBytes(range: start..<resume, resynchronized: true)
        }
        done = true
        return SkippedBytes(range: start..<size, resynchronized: false)
    }

    /// Moves libpcap's stream to `offset`, where libpcap reads on (it keeps what it read of
    /// the file's header, and for pcapng the section's interfaces); false when the stream
    /// cannot be moved.
    func restart(at offset: Int64) -> Bool {
        guard let stream = pcap_file(handle) else { return false }
        guard StdioStream.seek(stream, to: offset) else { return false }
        nextRecordOffset = offset
        done = false
        return true
    }
}
