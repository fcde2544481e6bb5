import Foundation
import NearbyBytes
import NearbyTestSupport
import Testing

@testable import NearbyCapture

func readAll(_ path: String) throws -> [CaptureReadResult] {
    let reader = try CaptureFile.open(path)
    var out: [CaptureReadResult] = []
    while let r = reader.next() { out.append(r) }
    return out
}

/// Every record and step of the file at `path`, the records lent in runs (the closure returns
/// true, as `CaptureDecoder` reads) when `inRuns`, else one at a time (`readAll(_:)`).
func readAll(_ path: String, inRuns: Bool) throws -> [CaptureReadResult] {
    guard inRuns else { return try readAll(path) }
    let reader = try CaptureFile.open(path)
    var out: [CaptureReadResult] = []
    while true {
        let step = reader.read {
            out.append(.record(CaptureRecord(copying: $0)))
            return true
        }
        switch step {
        case .record: continue
        case .malformed(let fault): out.append(.malformed(fault))
        case .end: return out
        }
    }
}

@Suite struct ContainerTests {
    @Test func theBtsnoopVectorGivesOneRecordAtItsTime() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let results = try readAll(dir.write(ReferenceVectors.twoReportBtsnoopFile, to: "v.log"))
        guard results.count == 1, case .record(let r) = results[0] else {
            Issue.record("\(results)")
            return
        }
        #expect(r.metadata.timestampMicros == 1_700_000_000_123_456)
        #expect(Array(r.bytes) == ReferenceVectors.twoReportEvent)
        #expect(r.metadata.encapsulation == .btsnoop(.hciUART, flags: 3))
        #expect(r.metadata.fileOffset == 40)
    }

    /// RECORDS-1.
    @Test func formatsAreDetectedFromContentNotName() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (pcapPath, _) = try dir.writePcap(
            [ReferenceVectors.twoReportPcap201Record], linkType: .bluetoothHCIH4WithPHDR,
            to: "looks-like.pcapng")
        let reader = try CaptureFile.open(pcapPath)
        #expect(reader.format == .pcap)
        let snoop = try CaptureFile.open(dir.write(ReferenceVectors.twoReportBtsnoopFile, to: "x.pcap"))
        #expect(snoop.format == .btsnoop)
        let text = try CaptureFile.open(dir.write(Array("# c\n\nlabel\t04 0e 04 01 0c 20 00\n".utf8), to: "x.bin"))
        #expect(text.format == .hexText)
        var png = PcapngWriter(linkType: .bluetoothHCIH4)
        png.append(ReferenceVectors.twoReportEvent, timestampMicros: 1_700_000_000_000_001)
        let ng = try CaptureFile.open(dir.write(png.bytes, to: "x.log"))
        #expect(ng.format == .pcapng)
        guard case .record(let r)? = ng.next() else {
            Issue.record("no record")
            return
        }
        #expect(r.metadata.timestampMicros == 1_700_000_000_000_001)
        #expect(Array(r.bytes) == ReferenceVectors.twoReportEvent)
    }

    /// RECORDS-2, BTSNOOP-1.
    @Test func unreadableFilesAreRefusedWithAReason() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: CaptureFileError(path: dir.file("empty"), code: .empty, reason: "empty file")) {
            try CaptureFile.open(dir.write([], to: "empty"))
        }
        let prose = #expect(throws: CaptureFileError.self) {
            try CaptureFile.open(dir.write(Array("Hello, world!\nThis is prose.\n".utf8), to: "prose"))
        }
        #expect(prose?.code == .unknownFormat)
        let script = #expect(throws: CaptureFileError.self) {
            try CaptureFile.open(dir.write(Array("#!/bin/sh\necho hi\n".utf8), to: "script"))
        }
        #expect(script?.code == .unknownFormat)
        let missing = #expect(throws: CaptureFileError.self) { try CaptureFile.open(dir.file("missing")) }
        #expect(missing?.code == .unreadable)
        #expect(throws: CaptureFileError.self) { try CaptureFile.open(dir.path) }
        var v2 = ReferenceVectors.twoReportBtsnoopFile
        v2[11] = 2
        #expect(
            throws: CaptureFileError(
                path: dir.file("v2"), code: .unsupported, reason: "btsnoop version 2 is not supported (only 1)")
        ) {
            try CaptureFile.open(dir.write(v2, to: "v2"))
        }
    }

    /// A pcap whose header says version 3.0 (bytes 4–7, little-endian here) is no pcap this
    /// reader knows: unreadable, with a reason, where 2.4 and 2.0 read. Holds PCAP-2.
    @Test func aPcapOfAnotherMajorVersionIsUnreadable() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var w = PcapBytesWriter(linkType: .bluetoothHCIH4)
        w.append(ReferenceVectors.twoReportEvent, timestampMicros: 1)
        #expect(w.bytes[4] == 2 && w.bytes[6] == 4, "the writer writes 2.4")
        var v3 = w.bytes
        v3[4] = 3
        v3[6] = 0
        #expect(throws: CaptureFileError.self) { try CaptureFile.open(dir.write(v3, to: "v3.pcap")) }
        var v20 = w.bytes
        v20[6] = 0
        #expect(throws: Never.self) { try CaptureFile.open(dir.write(v20, to: "v20.pcap")) }
    }

    /// BTSNOOP-12: a btsnoop file cut short after it was opened (a log still being rotated, a file system
    /// error): the reader read its length at opening, so a record's data ends early. That
    /// record is malformed at the byte where the data ended, and the file ends there.
    @Test func aBtsnoopFileCutAfterOpeningEndsWithAMalformedRecord() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var w = BtsnoopWriter(datalink: .hciUART)
        let record = ReferenceVectors.twoReportEvent  // an H4 event, indicator first
        // More than the reader's first chunk, so that the cut is read after it.
        let count = 2 * BufferedFile.chunkSize / (24 + record.count)
        for i in 0..<count { w.append(record, flags: BtsnoopWriter.Flags.receivedEvent, timestampMicros: Int64(i)) }
        let bytes = w.takeBytes()
        let path = dir.write(bytes, to: "cut.log")
        let reader = try CaptureFile.open(path)
        let cut = bytes.count - 3 * (24 + record.count) - 10  // 10 bytes into a record's data
        #expect(truncate(path, off_t(cut)) == 0)
        var results: [CaptureReadResult] = []
        while let r = reader.next() { results.append(r) }
        let records = results.filter { if case .record = $0 { true } else { false } }
        #expect(records.count == (cut - 16) / (24 + record.count))
        guard case .malformed(let fault) = results.last else {
            Issue.record("\(results.last as Any)")
            return
        }
        let (index, fileOffset, e) = (fault.index, fault.fileOffset, fault.error)
        #expect(index == records.count + 1)
        #expect(e.layer == .btsnoop && e.code == .truncated)
        #expect(fileOffset == Int64(cut))
        #expect(e.offset == cut - (16 + records.count * (24 + record.count)))
    }

    /// BTSNOOP-9, BTSNOOP-11: every prefix of a btsnoop file: a header too short cannot be opened; a cut inside a
    /// record header is `truncated` at that field; a cut in the data is `length-overrun` at
    /// the included-length field. The records before the cut are still read.
    @Test func btsnoopDripFeed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var file = ReferenceVectors.twoReportBtsnoopFile
        file += Array(file[16...])  // a second record
        var header = FieldMap()
        [4, 4, 4, 4, 8].forEach { header.fixed($0) }
        for n in 0..<file.count {
            let path = dir.write(Array(file[0..<n]), to: "cut\(n)")
            if n < 16 {
                #expect(throws: CaptureFileError.self) { try CaptureFile.open(path) }
                continue
            }
            let results = try readAll(path)
            let recordStart = n < 126 ? 16 : 126
            let intoRecord = n - recordStart
            let whole = recordStart == 16 ? 0 : 1
            if intoRecord == 0 {
                #expect(results.count == whole)
                continue
            }
            #expect(results.count == whole + 1)
            guard case .malformed(let fault)? = results.last else {
                Issue.record("prefix \(n)")
                continue
            }
            let (index, offset, e) = (fault.index, fault.fileOffset, fault.error)
            #expect(index == whole + 1)
            let want: (DecodeError.Code, Int) =
                intoRecord < 24 ? (.truncated, header.expectedFailure(cutAt: intoRecord).offset) : (.lengthOverrun, 4)
            #expect(e.code == want.0 && e.offset == want.1, "prefix \(n): \(e)")
            #expect(offset == Int64(recordStart + want.1))
        }
    }

    /// PCAP-11: libpcap reports a cut record as a truncated dump file; the records before it are read.
    /// As for btsnoop, the fault names the field: a cut inside a record header the field
    /// that could not be read (ts_sec 0, ts_usec 4, incl_len 8, orig_len 12), a cut in the data
    /// the captured-length field (8) whose length runs past the file.
    @Test func pcapDripFeed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (_, file) = try dir.writePcap(
            [ReferenceVectors.twoReportEvent, ReferenceVectors.eidExtendedReportEvent],
            linkType: .bluetoothHCIH4, to: "full.pcap")
        let secondStart = 24 + 16 + ReferenceVectors.twoReportEvent.count
        for n in 0..<file.count {
            let cut = dir.write(Array(file[0..<n]), to: "cut\(n)")
            if n < 24 {
                #expect(throws: CaptureFileError.self) { try CaptureFile.open(cut) }
                continue
            }
            let results = try readAll(cut)
            let whole = n >= secondStart ? 1 : 0
            let atBoundary = n == 24 || n == secondStart
            #expect(results.count == whole + (atBoundary ? 0 : 1), "prefix \(n)")
            if !atBoundary {
                guard case .malformed(let fault)? = results.last else {
                    Issue.record("prefix \(n)")
                    continue
                }
                let (offset, e) = (fault.fileOffset, fault.error)
                #expect(e.code == .truncated && e.layer == .pcap, "prefix \(n): \(e)")
                let recordStart = n < secondStart ? 24 : secondStart
                let intoRecord = n - recordStart
                let field = intoRecord < 16 ? intoRecord / 4 * 4 : 8
                #expect(
                    e.offset == field && offset == Int64(recordStart + field), "prefix \(n): \(e) at \(offset as Any)")
            }
        }
    }

    /// PCAP-8 and DAMAGE-16: a captured length of 0 is `pcap/invalid-value` at offset 8 of its
    /// record header, and the report names the record header, as docs/damaged-captures.md shows
    /// it ("…: record header: …; skipped bytes …"), whether the damaged header is the file's
    /// first (no record is read before it) or one after a record already read.
    @Test(arguments: [0, 3])
    func aDamagedPcapHeaderIsReportedAsTheRecordHeaderWhereverItIs(damaged: Int) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let records = (0..<8).map { [0x04, 0x0E, 0x01, UInt8($0)] }
        var (_, bytes) = try dir.writePcap(records, linkType: .bluetoothHCIH4, to: "good.pcap")
        let start = 24 + damaged * (16 + 4)
        for k in 8..<12 { bytes[start + k] = 0 }
        let results = try readAll(dir.write(bytes, to: "damaged.pcap"))
        let faults = results.compactMap { r -> ContainerFault? in
            if case .malformed(let f) = r { f } else { nil }
        }
        #expect(faults.count == 1 && results.count == records.count, "\(results)")
        guard let fault = faults.first else { return }
        #expect(fault.error.layer == .pcap && fault.error.code == .invalidValue && fault.error.offset == 8)
        #expect(fault.fileOffset == Int64(start + 8))
        #expect(fault.error.reason.hasPrefix("record header: captured length 0"), "\(fault.error.reason)")
        #expect(fault.skipped?.range.lowerBound == Int64(start), "\(fault)")
    }

    /// HEXTEXT-2, HEXTEXT-5.
    @Test func hexTextLinesWithoutHexAreMalformedRecords() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = "# comment\nok\t04 0E 04 01 0C 20 00\nbad\tnot hex at all\n\n04 0e 04 01 0c 20 00\n"
        let results = try readAll(dir.write(Array(text.utf8), to: "t.txt"))
        #expect(results.count == 3)
        guard case .malformed(let fault) = results[1] else {
            Issue.record("\(results[1])")
            return
        }
        let (index, line, e) = (fault.index, fault.line, fault.error)
        #expect(index == 2 && line == 3 && e.layer == .hexText)
        guard case .record(let r) = results[2] else {
            Issue.record("\(results[2])")
            return
        }
        #expect(r.metadata.index == 3 && r.metadata.line == 5 && r.metadata.timestampMicros == nil)
    }
}
