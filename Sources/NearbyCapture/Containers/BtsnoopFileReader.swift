import NearbyBytes

/// Reads btsnoop version 1 files natively (the layout BlueZ and Wireshark write and read,
/// below).
///
/// File header (16 bytes): `btsnoop\0`, version (uint32 BE, must be 1: BTSNOOP-1), datalink
/// (uint32 BE). Record header (24 bytes, all big-endian): original length, included length,
/// flags, cumulative drops, timestamp (int64, microseconds since 0000-01-01 in btsnoop's
/// epoch: Unix time = timestamp − 0x00DCDDB30F2F8000, BTSNOOP-4).
///
/// Each record is lent only once the header after it is seen to be plausible and to follow
/// it; past a damaged header the reader goes on at the next run of plausible records,
/// reporting the bytes skipped (DAMAGE-6 to DAMAGE-13).
public final class BtsnoopFileReader: CaptureRecordReader, SteppingReader {
    /// btsnoop timestamp of 1970-01-01T00:00:00Z, in microseconds (BTSNOOP-4).
    public static let unixEpochOffsetMicros: Int64 = 0x00DC_DDB3_0F2F_8000
    /// Records longer than this are taken for a corrupt length field (the largest HCI
    /// packet is under 64 KiB; Wireshark's limit is 256 KiB: BTSNOOP-8, BTSNOOP-10).
    public static let maximumRecordLength = 1 << 18

    public let format = CaptureFormat.btsnoop
    public let datalink: BtsnoopDatalink
    public var encapsulationDescription: String { "btsnoop datalink \(datalink)" }

    private let path: String
    private let file: BufferedFile
    // Only `read` touches the reader's state, and a reader is used by one thread at a time
    // (it is not Sendable).
    @exclusivity(unchecked) private var core = ReaderCore()
    private var done = false
    /// Bytes after the last record lent that hold no plausible record: reported by the next
    /// `read`, which then goes on at their end.
    private var pendingSkip: (SkippedBytes, DecodeError)?
    /// The last record lent: what a record found past damage should follow in time.
    @exclusivity(unchecked) private var lastLent: ProbedRecord?
    /// The scan for the next plausible record, set up at the first damage; nil when the file
    /// cannot be read at an offset (then damage ends the file, as it must for a pipe).
    private lazy var scan: Resynchronizer? = {
        let datalink = datalink
        return FileWindow(path: path).map { window in
            Resynchronizer(window: window, headerLength: Header.length) { window, offset in
                guard let raw = window.bytes(at: offset, count: Header.length) else { return nil }
                let header = Header(raw)
                // A length past the end is left to the run (a file cut inside a record).
                return header.isPlausible(datalink: datalink, bytesAfterHeader: .max) ? header.probed(at: offset) : nil
            }
        }
    }()

    /// The time of the file's first record when a run of plausible records starts there
    /// (µs): what a resynchronisation prefers records not to be long before.
    private lazy var earliestMicros: Int64? = scan.flatMap { scan in
        scan.runStarts(at: 16) ? scan.probe(scan.window, 16)?.timestampMicros : nil
    }

    public init(path: String) throws(CaptureFileError) {
        self.path = path
        file = try BufferedFile(path: path)
        var h = [UInt8]()
        let n = file.read(into: &h, count: 16)
        var c = ByteCursor(h[0..<n], layer: .btsnoop)
        do {
            let magic = try c.readShortBytes(8, "magic")
            guard magic.elementsEqual("btsnoop\0".utf8) else {
                throw CaptureFileError(path: path, code: .badHeader, reason: "not a btsnoop file")
            }
            let version = try c.readUInt32BE("version")
            guard version == 1 else {
                throw CaptureFileError(
                    path: path, code: .unsupported, reason: "btsnoop version \(version) is not supported (only 1)")
            }
            datalink = BtsnoopDatalink(rawValue: try c.readUInt32BE("datalink"))
        } catch let e as DecodeError {
            throw CaptureFileError(path: path, code: .badHeader, reason: "btsnoop file header: \(e.reason)")
        } catch let e as CaptureFileError {
            throw e
        } catch {
            throw CaptureFileError(path: path, code: .unreadable, reason: "\(error)")
        }
    }

    /// A record header's fields, big-endian in the file.
    struct Header {
        static let length = 24
        var originalLength: UInt32
        var includedLength: UInt32
        var flags: UInt32
        var drops: UInt32
        var timestamp: Int64

        /// Reads the header at the start of `bytes` (at least 24 of them).
        init(_ bytes: UnsafeRawBufferPointer) {
            originalLength = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            includedLength = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            flags = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            drops = UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
            timestamp = Int64(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: Int64.self))
        }

        /// Why the header cannot be a record's by itself (DAMAGE-2; BTSNOOP-5 to BTSNOOP-10),
        /// or nil: the included length is at most 262,144 bytes, within
        /// the `bytesAfterHeader` the file holds after the header, and the
        /// original length, which is no shorter; at least 1 byte except under the Linux
        /// monitor datalink (whose close-index records are empty); flags are direction and
        /// command/event bits (0…3), or, under the monitor datalink, an opcode up to 0x3f
        /// and any adapter index.
        func problem(datalink: BtsnoopDatalink, bytesAfterHeader: Int64) -> DecodeError? {
            if isPlausible(datalink: datalink, bytesAfterHeader: bytesAfterHeader) { return nil }
            let limit = BtsnoopFileReader.maximumRecordLength
            if includedLength > limit {
                return DecodeError(
                    .btsnoop, .invalidValue, at: 4, "included length \(includedLength) exceeds the \(limit)-byte limit")
            }
            if Int64(includedLength) > bytesAfterHeader {
                return DecodeError(
                    .btsnoop, .lengthOverrun, at: 4,
                    "included length \(includedLength) overruns the file (\(max(0, bytesAfterHeader)) bytes left)")
            }
            if originalLength < includedLength || originalLength > limit {
                return DecodeError(
                    .btsnoop, .invalidValue, at: 0,
                    "original length \(originalLength) is not between the included length \(includedLength) and "
                        + "\(limit)"
                )
            }
            if datalink == .linuxMonitor {
                if flags & 0xFFFF > 0x3F {
                    return DecodeError(
                        .btsnoop, .invalidValue, at: 8,
                        "flags 0x\(String(flags, radix: 16)) hold no monitor opcode (0…0x3f)")
                }
            } else {
                if includedLength == 0 {
                    return DecodeError(
                        .btsnoop, .invalidValue, at: 4, "included length 0: an HCI packet has at least 1 byte")
                }
                if flags > 3 {
                    return DecodeError(
                        .btsnoop, .invalidValue, at: 8,
                        "flags 0x\(String(flags, radix: 16)) are not direction and command/event bits (0…3)")
                }
            }
            return nil
        }

        /// True when `problem` finds none (without building its reason: the scan for the
        /// next record asks this at every offset).
        @inline(__always)
        func isPlausible(datalink: BtsnoopDatalink, bytesAfterHeader: Int64) -> Bool {
            let limit = UInt32(BtsnoopFileReader.maximumRecordLength)
            guard includedLength <= limit, Int64(includedLength) <= bytesAfterHeader,
                originalLength >= includedLength, originalLength <= limit
            else { return false }
            if datalink == .linuxMonitor { return flags & 0xFFFF <= 0x3F }
            return includedLength > 0 && flags <= 3
        }

        /// The record this header begins at `offset`, for the plausibility rules.
        func probed(at offset: Int64) -> ProbedRecord {
            ProbedRecord(
                start: offset, end: offset + Int64(Header.length) + Int64(includedLength),
                timestampMicros: timestamp &- BtsnoopFileReader.unixEpochOffsetMicros, drops: drops)
        }
    }

    public func read(_ body: (borrowing RecordView) -> Bool) -> CaptureReadStep {
        readSteps(body)
    }

    /// Reads one record, or reports what failed.
    func step(_ body: (borrowing RecordView) -> Void) -> CaptureReadStep {
        if let (skip, problem) = pendingSkip {
            pendingSkip = nil
            if skip.resynchronized { file.seek(to: skip.range.upperBound) } else { done = true }
            return core.report(
                ContainerFault(
                    at: skip.range.lowerBound + Int64(problem.offset),
                    DecodeError(
                        .btsnoop, problem.code, at: problem.offset, "record header: \(problem.reason); \(skip)"),
                    skipped: skip))
        }
        guard !done, file.remaining > 0 else { return .end }
        let headerOffset = file.offset
        let headerBytes = file.peek(Header.length)
        guard headerBytes.count == Header.length else {
            done = true
            let skip = SkippedBytes(range: headerOffset..<file.size, resynchronized: false)
            // BTSNOOP-11: the field the file ends in (the timestamp is 8 bytes, at 16).
            let field = min(headerBytes.count / 4 * 4, 16)
            return core.report(
                ContainerFault(
                    at: headerOffset + Int64(field),
                    DecodeError(
                        .btsnoop, .truncated, at: field,
                        "record header: the file ends after \(headerBytes.count) of 24 bytes; \(skip)"),
                    skipped: skip))
        }
        let header = Header(headerBytes)
        if let problem = header.problem(datalink: datalink, bytesAfterHeader: file.size - headerOffset - 24) {
            return recover(at: header.probed(at: headerOffset), problem)
        }
        let record = header.probed(at: headerOffset)
        let length = Int(header.includedLength)
        // The record and the header after it, when the file holds one.
        let bytes = file.peek(min(Header.length + length + Header.length, Int(file.size - headerOffset)))
        if bytes.count < Header.length + length {
            // BTSNOOP-12: the file was cut short since it was opened, or could not be read.
            done = true
            let skip = SkippedBytes(range: headerOffset..<file.size, resynchronized: false)
            return core.report(
                ContainerFault(
                    at: headerOffset + Int64(bytes.count),
                    DecodeError(
                        .btsnoop, .truncated, at: bytes.count,
                        "record data: the file ended or could not be read after \(bytes.count - 24) of \(length) bytes; "
                            + "\(skip)"
                    ),
                    skipped: skip))
        }
        if bytes.count == 2 * Header.length + length {
            let next = Header(UnsafeRawBufferPointer(rebasing: bytes[(Header.length + length)...]))
            if let problem = next.problem(datalink: datalink, bytesAfterHeader: file.size - record.end - 24)
                ?? Self.sequenceProblem(next.probed(at: record.end), after: record)
            {
                if let verdict = lookAheadFailed(after: record, nextProblem: problem) { return verdict }
            }
        }
        body(
            RecordView(
                RecordMetadata(
                    index: core.number(), timestampMicros: record.timestampMicros,
                    encapsulation: .btsnoop(datalink, flags: header.flags),
                    originalLength: Int(header.originalLength), fileOffset: headerOffset + Int64(Header.length)),
                bytes: Span(
                    _unsafeBytes: UnsafeRawBufferPointer(rebasing: bytes[Header.length..<(Header.length + length)]))))
        file.skip(Header.length + length)
        lastLent = record
        return .record
    }

    /// Why `next` cannot be the record after `previous` (its drop count or timestamp), or nil
    /// (DAMAGE-5, DAMAGE-8).
    static func sequenceProblem(_ next: ProbedRecord, after previous: ProbedRecord) -> DecodeError? {
        if next.follows(previous) { return nil }
        if next.drops < previous.drops {
            return DecodeError(
                .btsnoop, .invalidValue, at: 12,
                "cumulative drops \(next.drops) fall below the \(previous.drops) of the record before")
        }
        return DecodeError(
            .btsnoop, .invalidValue, at: 16,
            "timestamp \(next.timestampMicros ?? 0) µs is not within a day of the record before "
                + "(\(previous.timestampMicros ?? 0) µs)"
        )
    }

    /// The header after `record` is implausible (`nextProblem`): nil when `record` is whole
    /// and reading goes on (at its end, or past the damage after it, reported by the next
    /// `read`); else the malformed step for `record` itself, whose length runs into a
    /// plausible record (DAMAGE-7, DAMAGE-8, DAMAGE-9).
    private func lookAheadFailed(after record: ProbedRecord, nextProblem: DecodeError) -> CaptureReadStep? {
        guard let scan else { return nil }
        switch scan.resume(afterWhole: record, earliest: earliestMicros) {
        case .clockStep:
            return nil
        case .lengthLies(let next):
            let skip = SkippedBytes(range: record.start..<next, resynchronized: true)
            file.seek(to: next)
            return core.report(
                ContainerFault(
                    at: record.start + 4,
                    DecodeError(
                        .btsnoop, .invalidValue, at: 4,
                        "record header: included length \(record.end - record.start - 24) runs past the next plausible "
                            + "record, at byte \(next); \(skip)"
                    ),
                    skipped: skip))
        case .damageFollows(let next):
            pendingSkip = (
                SkippedBytes(range: record.end..<(next ?? scan.size), resynchronized: next != nil), nextProblem
            )
            return nil
        }
    }

    /// The malformed step for an implausible header at `record.start`, reading on at the
    /// next run (which may be the record's own end), else ending the file (DAMAGE-6,
    /// DAMAGE-11, DAMAGE-13).
    private func recover(at record: ProbedRecord, _ problem: DecodeError) -> CaptureReadStep {
        let fault = { (skip: SkippedBytes?) -> CaptureReadStep in
            self.core.report(
                ContainerFault(
                    at: record.start + Int64(problem.offset),
                    DecodeError(
                        .btsnoop, problem.code, at: problem.offset,
                        "record header: " + problem.reason + (skip.map { "; \($0)" } ?? "")),
                    skipped: skip))
        }
        guard let scan else {
            done = true
            return fault(nil)
        }
        let next = scan.firstRun(after: record.start, anchor: lastLent, earliest: earliestMicros)
        let skip = SkippedBytes(range: record.start..<(next ?? scan.size), resynchronized: next != nil)
        if let next { file.seek(to: next) } else { done = true }
        return fault(skip)
    }
}
