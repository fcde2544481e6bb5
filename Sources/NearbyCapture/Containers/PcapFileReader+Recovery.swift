import CPcap
import NearbyBytes

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Resynchronisation after damage (docs/damaged-captures.md): the look-ahead that checks
/// each record against the next, and the restart past the damaged bytes.
extension PcapFileReader {
    func makeScan() -> Resynchronizer? {
        guard let window = FileWindow(path: path), let raw = window.bytes(at: 0, count: 24) else { return nil }
        fileHeader = Array(raw)
        guard let layout = HeaderLayout(magic: UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self))) else {
            return nil
        }
        headerLayout = layout
        return Resynchronizer(window: window, headerLength: 16) { window, offset in
            window.bytes(at: offset, count: 16).flatMap { layout.record(header: $0.baseAddress!, at: offset) }
        }
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
                pendingStep = .malformed(
                    index: index, fileOffset: held.record.end + Int64(nextProblem.offset), line: nil,
                    nextProblem, skipped: nil)
            }
            return .record
        }
        if next != nil, scan.runStarts(at: held.record.end) {
            // A step in the clock, not damage: the records from here on agree with each other.
            let (record, bytes, original) = next!
            lendHeld(body)
            hold(record, bytes: bytes, originalLength: original)
            return .record
        }
        let resume = scan.firstRun(after: held.record.start, anchor: held.record)
        if let resume, resume < held.record.end {
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
        lendHeld(body)
        index += 1
        let skip = goOn(skipping: held.record.end, to: resume, size: scan.size)
        pendingStep = .malformed(
            index: index, fileOffset: skip.range.lowerBound + Int64(nextProblem.offset), line: nil,
            DecodeError(
                .pcap, nextProblem.code, at: nextProblem.offset, "record header: \(nextProblem.reason); \(skip)"),
            skipped: skip)
        return .record
    }

    /// The malformed step for a damaged record header at `start` (with no record held),
    /// reading on at the record's end when a run starts there, else at the next run, else
    /// ending the file.
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
        var resume: Int64?
        if let included = scan.window.integer(UInt32.self, at: start + 8, bigEndian: headerLayout!.bigEndian),
            included > 0, included <= Self.maximumRecordLength,
            start + 16 + Int64(included) < scan.size, scan.runStarts(at: start + 16 + Int64(included), after: lastLent)
        {
            resume = start + 16 + Int64(included)
        } else {
            resume = scan.firstRun(after: start, anchor: lastLent)
        }
        return fault(goOn(skipping: start, to: resume, size: scan.size))
    }

    /// pcapng: libpcap gave up (`problem`) at the block after the last packet it returned.
    /// The block is skipped exactly when its framing holds (its content was damaged), else
    /// the bytes up to the next run of well-framed blocks; libpcap then reads on from there,
    /// after the Section Header and Interface Description Blocks in force.
    func recoverPcapng(_ problem: DecodeError) -> CaptureReadStep {
        index += 1
        let fault = { (at: Int64?, skip: SkippedBytes?) -> CaptureReadStep in
            .malformed(
                index: self.index, fileOffset: at, line: nil,
                DecodeError(
                    .pcap, problem.code, at: 0,
                    problem.reason + (at.map { " (block at byte \($0))" } ?? "") + (skip.map { "; \($0)" } ?? "")),
                skipped: skip)
        }
        done = true
        if pcapngWalker == nil { pcapngWalker = FileWindow(path: path).map { PcapngBlockWalker(window: $0) } }
        guard var walker = pcapngWalker,
            let (bad, framed) = walker.walk(from: walkStart, packets: packetsSinceWalkStart)
        else {
            return fault(nil, nil)
        }
        let scan = Resynchronizer(window: walker.window, headerLength: 12) { [walker] window, offset in
            walker.probe(window, at: offset)
        }
        var resume: Int64?
        if framed, let block = walker.block(at: bad), bad + block.length < scan.size,
            scan.runStarts(at: bad + block.length)
        {
            resume = bad + block.length
        } else {
            resume = scan.firstRun(after: bad, anchor: nil)
        }
        pcapngWalker = walker
        let skip = goOn(skipping: bad, to: resume, size: scan.size, prefix: walker.prefix)
        walkStart = skip.range.upperBound
        packetsSinceWalkStart = 0
        return fault(bad, skip)
    }

    /// The bytes skipped from `start`: up to `resume` when libpcap reads on from there, else
    /// (no resumption point, or libpcap refuses the stream) to the end of the file, which
    /// then ends.
    func goOn(skipping start: Int64, to resume: Int64?, size: Int64, prefix: [UInt8]? = nil) -> SkippedBytes {
        if let resume, restart(at: resume, prefix: prefix) {
            return SkippedBytes(range: start..<resume, resynchronized: true)
        }
        done = true
        return SkippedBytes(range: start..<size, resynchronized: false)
    }

    /// Hands libpcap the file's header (`prefix`) and the bytes from `offset` on; false when
    /// that cannot be done.
    func restart(at offset: Int64, prefix: [UInt8]? = nil) -> Bool {
        let prefix = prefix ?? fileHeader
        #if canImport(Glibc)
        var errbuf = [CChar](repeating: 0, count: Int(PCAP_ERRBUF_SIZE) + 1)
        guard let stream = SplicedStream.open(path: path, prefix: prefix, from: offset) else { return false }
        guard let h = pcap_fopen_offline_with_tstamp_precision(stream, UInt32(PCAP_TSTAMP_PRECISION_MICRO), &errbuf)
        else {
            fclose(stream)  // libpcap closes the stream only once it has taken it
            return false
        }
        pcap_close(handle)
        streamBuffer?.deallocate()
        streamBuffer = nil
        handle = h
        streamShift = offset - Int64(prefix.count)
        nextRecordOffset = offset
        done = false
        return true
        #else
        return false
        #endif
    }
}
