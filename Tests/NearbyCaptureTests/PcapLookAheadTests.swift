import NearbyBytes
import NearbySystem
import NearbyTestSupport
import Testing

@testable import NearbyCapture

/// The classic-pcap look-ahead over files larger than the reader's stream buffer (256 KiB) and
/// than the window's mapping (`StreamWindow.mappingSize`): record headers and records fall
/// across every refill of the buffer (where, with the plain window, the next header cannot be
/// read in place and the record is held back instead) and across every move of the mapping.
@Suite struct PcapLookAheadTests {
    /// 6,000 records of 1–251 bytes (about 850 KB): every length, every position of a header
    /// against a refill. Each record's bytes name it, so a record lent from the wrong buffer
    /// shows.
    static let records: [[UInt8]] = (0..<6000).map { i in
        (0..<(1 + i * 37 % 251)).map { UInt8(truncatingIfNeeded: i &* 7 &+ $0) }
    }

    /// File offset of each record's header: the file header is 24 bytes, a record its
    /// 16-byte header and its bytes (PCAP-5).
    static let headerOffsets: [Int] = records.reduce(into: [24]) { $0.append($0.last! + 16 + $1.count) }

    /// The file in either byte order, with microsecond or nanosecond fractions (PCAP-1,
    /// PCAP-4: magic 0xA1B2C3D4 or 0xA1B23C4D written in the file's byte order, version 2.4,
    /// snaplen 262144, LINKTYPE 201 or `linkType`), record `i` at `i + 1` µs, its original
    /// length `i % 3` bytes more than it holds.
    static func file(bigEndian: Bool, nanoseconds: Bool, linkType: UInt32 = 201) -> [UInt8] {
        func word(_ v: UInt32) -> [UInt8] {
            withUnsafeBytes(of: bigEndian ? v.bigEndian : v.littleEndian) { Array($0) }
        }
        func half(_ v: UInt16) -> [UInt8] {
            withUnsafeBytes(of: bigEndian ? v.bigEndian : v.littleEndian) { Array($0) }
        }
        var out = word(nanoseconds ? 0xA1B2_3C4D : 0xA1B2_C3D4) + half(2) + half(4) + word(0) + word(0)
        out += word(262_144) + word(linkType)
        for (i, record) in records.enumerated() {
            // The 4-byte direction pseudo-header of LINKTYPE 201.
            let data = linkType == 201 ? [0, 0, 0, 1] + record : record
            out += word(UInt32(1_700_000_000 + i / 1_000_000)) + word(UInt32(i + 1) * (nanoseconds ? 1000 : 1))
            out += word(UInt32(data.count)) + word(UInt32(data.count + i % 3)) + data
        }
        return out
    }

    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)], [false, true])
    func everyByteOrderAndPrecisionIsRead(layout: (bigEndian: Bool, nanoseconds: Bool), inRuns: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let bytes = Self.file(bigEndian: layout.bigEndian, nanoseconds: layout.nanoseconds)
        #expect(bytes.count > 3 * LibpcapFile.streamBufferSize)
        let results = try readAll(dir.write(bytes, to: "large.pcap"), inRuns: inRuns)
        #expect(results.count == Self.records.count)
        var offset = 24
        for (i, result) in results.enumerated() {
            guard case .record(let r) = result else {
                Issue.record("record \(i + 1): \(result)")
                continue
            }
            #expect(r.metadata.index == i + 1)
            #expect(r.metadata.fileOffset == Int64(offset + 16), "record \(i + 1)")
            #expect(r.metadata.timestampMicros == 1_700_000_000 * 1_000_000 + Int64(i + 1), "record \(i + 1)")
            #expect(r.metadata.originalLength == 4 + Self.records[i].count + i % 3, "record \(i + 1)")
            #expect(Array(r.bytes) == [0, 0, 0, 1] + Self.records[i], "record \(i + 1)")
            offset += 16 + 4 + Self.records[i].count
        }
    }

    @Test(arguments: [false, true])
    func everyRecordOfAFileLargerThanTheStreamBufferIsLentWhereItIs(inRuns: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (path, bytes) = try dir.writePcap(Self.records, linkType: .bluetoothHCIH4, to: "large.pcap")
        #expect(bytes.count > 3 * LibpcapFile.streamBufferSize)
        let results = try readAll(path, inRuns: inRuns)
        #expect(results.count == Self.records.count)
        for (i, result) in results.enumerated() {
            guard case .record(let r) = result else {
                Issue.record("record \(i + 1): \(result)")
                continue
            }
            #expect(r.metadata.index == i + 1)
            #expect(r.metadata.fileOffset == Int64(Self.headerOffsets[i] + 16), "record \(i + 1)")
            #expect(r.metadata.timestampMicros == Int64(i + 1), "record \(i + 1)")
            #expect(Array(r.bytes) == Self.records[i], "record \(i + 1)")
        }
    }

    /// DAMAGE-6, DAMAGE-11: a record header that is not plausible is reported as one
    /// malformed record, its bytes skipped up to the next plausible record, and reading goes
    /// on from there; the record before it is whole. Here the damage lies past the first
    /// buffer's worth of the file.
    @Test(arguments: [false, true])
    func aDamagedHeaderPastTheFirstBufferLosesOnlyItsRecord(inRuns: Bool) throws {
        let (results, damaged, start) = try Self.readDamaged(pastFirstBuffer: 5000, inRuns: inRuns) { bytes, start in
            // incl_len (bytes 8–11, little-endian) far beyond any record.
            for k in 0..<4 { bytes[start + 8 + k] = [0xFF, 0xFF, 0xFF, 0x7F][k] }
        }
        guard case .malformed(let fault)? = Self.lostOnly(damaged, of: results, checkingOffsets: true) else { return }
        let (index, fileOffset, error, skipped) = (fault.index, fault.fileOffset, fault.error, fault.skipped)
        #expect(index == damaged + 1)
        #expect(error.layer == .pcap && error.code == .invalidValue && error.offset == 8, "\(error)")
        #expect(fileOffset == Int64(start + 8))
        #expect(skipped?.range == Int64(start)..<Int64(Self.headerOffsets[damaged + 1]))
        #expect(skipped?.resynchronized == true)
    }

    /// DAMAGE-7: a length made wrong but still in range is found at the record
    /// that carries it, because each record is checked against the header after it before
    /// it is lent. Here the record whose lengths grow by 7 bytes (its header then points into
    /// the next record) lies past the first buffer's worth of the file, where records are
    /// read in runs from the stream's buffer.
    @Test(arguments: [false, true])
    func aWrongLengthInRangeIsFoundAtItsOwnRecord(inRuns: Bool) throws {
        let (results, damaged, start) = try Self.readDamaged(pastFirstBuffer: 7000, inRuns: inRuns) { bytes, start in
            for field in [8, 12] { bytes[start + field] &+= 7 }  // incl_len and orig_len, little-endian
        }
        guard case .malformed(let fault)? = Self.lostOnly(damaged, of: results, checkingOffsets: false) else { return }
        let (index, error, skipped) = (fault.index, fault.error, fault.skipped)
        #expect(index == damaged + 1)
        #expect(error.layer == .pcap && error.offset == 8, "\(error)")
        #expect(skipped?.range == Int64(start)..<Int64(Self.headerOffsets[damaged + 1]))
    }

    /// Reads the file of `records` (LINKTYPE 187) after `damage` has changed the header of the
    /// first record that starts more than `extra` bytes past the first stream buffer (given
    /// the file's bytes and the header's offset): what was read, that record's index and its
    /// header's offset.
    static func readDamaged(
        pastFirstBuffer extra: Int, inRuns: Bool, _ damage: (inout [UInt8], Int) -> Void
    ) throws -> (results: [CaptureReadResult], damaged: Int, start: Int) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var (_, bytes) = try dir.writePcap(records, linkType: .bluetoothHCIH4, to: "large.pcap")
        let damaged = headerOffsets.firstIndex { $0 > LibpcapFile.streamBufferSize + extra }!
        let start = headerOffsets[damaged]
        damage(&bytes, start)
        return (try readAll(dir.write(bytes, to: "damaged.pcap"), inRuns: inRuns), damaged, start)
    }

    /// Checks that `results` are every record of `records`, whole and in order (with their
    /// file offsets when `checkingOffsets`), but the one at `damaged`, which is returned for
    /// the caller to check (nil, with an issue recorded, when it is not a malformed record).
    static func lostOnly(
        _ damaged: Int, of results: [CaptureReadResult], checkingOffsets: Bool
    ) -> CaptureReadResult? {
        #expect(results.count == records.count)
        for (i, result) in results.enumerated() where i != damaged {
            guard case .record(let r) = result else {
                Issue.record("record \(i + 1): \(result)")
                continue
            }
            #expect(r.metadata.index == i + 1)
            if checkingOffsets {
                #expect(r.metadata.fileOffset == Int64(headerOffsets[i] + 16), "record \(i + 1)")
            }
            #expect(Array(r.bytes) == records[i], "record \(i + 1)")
        }
        guard damaged < results.count, case .malformed = results[damaged] else {
            Issue.record("record \(damaged + 1): \(damaged < results.count ? "\(results[damaged])" : "missing")")
            return nil
        }
        return results[damaged]
    }

    /// Version 2.2 files have the two lengths the other way round, and libpcap swaps them
    /// back (PCAP-2; libpcap's sf-pcap.c), so that a record cut short
    /// (orig_len above incl_len, as written here) is read with the wrong length: what libpcap
    /// reads then is not what the header in the buffer said. Records read in runs are the
    /// records and faults of the file read one at a time.
    @Test func aFileWhoseLengthsLibpcapSwapsReadsTheSameInRunsAsRecordByRecord() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var (_, bytes) = try dir.writePcap(Self.records, linkType: .bluetoothHCIH4, to: "large.pcap")
        bytes[6] = 2  // minor version 2 (little-endian u16 at offset 6)
        for i in stride(from: 5, to: Self.records.count, by: 400) {
            let start = Self.headerOffsets[i]
            bytes[start + 12] &+= 3  // orig_len three bytes more than incl_len
        }
        let path = dir.write(bytes, to: "swapped.pcap")
        let oneByOne = try readAll(path, inRuns: false).map { String(describing: $0) }
        let inRuns = try readAll(path, inRuns: true).map { String(describing: $0) }
        #expect(oneByOne.count > 1000)
        #expect(oneByOne.contains { $0.hasPrefix("malformed") })
        #expect(inRuns == oneByOne)
    }

    /// libpcap rewrites the pseudo-header of a few link types when the file's byte order is
    /// not the host's (libpcap's pcap-util.c, `swap_pseudo_headers`: Linux USB, NFLOG, Linux
    /// SLL, PFLOG), so records of those are not lent as the file holds them: in runs, a
    /// LINKTYPE_USB_LINUX (189) file in the other byte order gives libpcap's records, whose
    /// 8-byte URB id (the pseudo-header's first field) is swapped.
    @Test func recordsWhosePseudoHeaderLibpcapRewritesReadTheSameInRuns() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let hostIsLittleEndian = UInt16(1).littleEndian == 1
        let bytes = Self.file(bigEndian: hostIsLittleEndian, nanoseconds: false, linkType: 189)
        let path = dir.write(bytes, to: "usb.pcap")
        let oneByOne = try readAll(path, inRuns: false)
        let inRuns = try readAll(path, inRuns: true)
        #expect(inRuns.count == Self.records.count)
        for (i, (one, run)) in zip(oneByOne, inRuns).enumerated() {
            guard case .record(let a) = one, case .record(let b) = run else {
                Issue.record("record \(i + 1): \(one), \(run)")
                continue
            }
            #expect(Array(b.bytes) == Array(a.bytes), "record \(i + 1)")
            let written = Self.records[i]
            if written.count >= 8 {
                #expect(Array(b.bytes.prefix(8)) == Array(written.prefix(8).reversed()), "record \(i + 1)")
            }
        }
    }

    /// 75,000 records of 1–251 bytes (about 10.6 MB, more than two mappings of the window):
    /// each record's bytes name it.
    static let manyRecords: [[UInt8]] = (0..<75_000).map { i in
        (0..<(1 + i * 37 % 251)).map { UInt8(truncatingIfNeeded: i &* 11 &+ $0) }
    }

    /// Where the window's mapping moves on, records are lent whole, in order, at their
    /// offsets (PCAP-5), in runs and one by one; one damaged header past the first mapping
    /// loses only its record (DAMAGE-6, DAMAGE-11), and reading goes on in the mapping that
    /// follows.
    @Test(arguments: [false, true])
    func recordsPastTheFirstMappingAreLentWholeAndDamageThereLosesOnlyItsRecord(inRuns: Bool) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var (path, bytes) = try dir.writePcap(Self.manyRecords, linkType: .bluetoothHCIH4, to: "mapped.pcap")
        #expect(bytes.count > 2 * StreamWindow.mappingSize + StreamWindow.mappingSize / 2)
        let offsets = Self.manyRecords.reduce(into: [24]) { $0.append($0.last! + 16 + $1.count) }
        func wrongRecords(_ results: [CaptureReadResult], except damaged: Int?) -> [Int] {
            results.indices.filter { i in
                guard case .record(let r) = results[i] else { return i != damaged }
                return i == damaged || r.metadata.index != i + 1
                    || r.metadata.fileOffset != Int64(offsets[i] + 16) || !r.bytes.elementsEqual(Self.manyRecords[i])
            }
        }
        let whole = try readAll(path, inRuns: inRuns)
        #expect(whole.count == Self.manyRecords.count)
        #expect(wrongRecords(whole, except: nil).isEmpty)

        let damaged = offsets.firstIndex { $0 > StreamWindow.mappingSize + 1000 }!
        for k in 0..<4 { bytes[offsets[damaged] + 8 + k] = [0xFF, 0xFF, 0xFF, 0x7F][k] }  // incl_len
        path = dir.write(bytes, to: "damaged.pcap")
        let results = try readAll(path, inRuns: inRuns)
        #expect(results.count == Self.manyRecords.count)
        #expect(wrongRecords(results, except: damaged).isEmpty)
        guard case .malformed(let fault) = results[damaged] else {
            Issue.record("record \(damaged + 1): \(results[damaged])")
            return
        }
        #expect(fault.skipped?.range == Int64(offsets[damaged])..<Int64(offsets[damaged + 1]))
    }
}
