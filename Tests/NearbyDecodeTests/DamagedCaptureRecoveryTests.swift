import Foundation
import NearbyCapture
import NearbyDecode
import NearbyFuzzTargets
import NearbySynthesis
import NearbyTestSupport
import Testing

/// Damaged copies of the bundled captures lose only the damage (docs/damaged-captures.md):
/// every container (btsnoop, pcap, pcapng built from the pcaps, hex text), with corrupt
/// record lengths, zeroed and duplicated headers, and bytes spliced out or inserted, each
/// at three places. Every beacon outside the damaged records is still decoded (compared
/// with the undamaged file's beacons: a metamorphic check, the clean decode being checked
/// against TShark elsewhere), each place gives one resynchronisation whose skipped range
/// lies in the damaged record, and the bytes of btsnoop and pcap files are covered exactly
/// once by header, records and skipped ranges.
@Suite struct DamagedCaptureRecoveryTests {
    /// The ways a record is damaged.
    enum Damage: String, CaseIterable, Sendable {
        /// The length field set to 0x7fffffff.
        case corruptLength
        /// The length field 256 bytes too long: still under every limit.
        case longerLength
        /// The record header (or pcapng block header) zeroed.
        case zeroedHeader
        /// The record header written twice.
        case duplicatedHeader
        /// 10 bytes cut out of the record's data.
        case splicedOut
        /// 7 bytes (0xAB) inserted into the record's data.
        case inserted
    }

    /// A container's record framing, for the test to find and damage records on its own.
    struct Framing {
        var fileHeader: Int
        var recordHeader: Int
        /// Offset of the length field in a record header, its width 4, and its byte order.
        var lengthField: Int
        var bigEndian: Bool
        /// Offset of the first data byte in a record.
        var dataStart: Int
        /// pcapng: the length counts the whole block and records are packet blocks only.
        var pcapng = false

        static func of(_ bytes: [UInt8]) -> Framing? {
            if bytes.starts(with: Array("btsnoop\0".utf8)) {
                return Framing(fileHeader: 16, recordHeader: 24, lengthField: 4, bigEndian: true, dataStart: 24)
            }
            switch Array(bytes.prefix(4)) {
            case [0xd4, 0xc3, 0xb2, 0xa1], [0x4d, 0x3c, 0xb2, 0xa1]:
                return Framing(fileHeader: 24, recordHeader: 16, lengthField: 8, bigEndian: false, dataStart: 16)
            case [0xa1, 0xb2, 0xc3, 0xd4], [0xa1, 0xb2, 0x3c, 0x4d]:
                return Framing(fileHeader: 24, recordHeader: 16, lengthField: 8, bigEndian: true, dataStart: 16)
            case [0x0a, 0x0d, 0x0d, 0x0a]:
                return Framing(
                    fileHeader: 0, recordHeader: 8, lengthField: 4, bigEndian: false, dataStart: 28, pcapng: true)
            default: return nil
            }
        }

        func read32(_ b: [UInt8], _ at: Int) -> Int {
            let v = b[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            return bigEndian ? v : Int(UInt32(v).byteSwapped)
        }

        func write32(_ b: inout [UInt8], _ at: Int, _ value: Int) {
            var v = UInt32(truncatingIfNeeded: value)
            if !bigEndian { v = v.byteSwapped }
            for i in 0..<4 { b[at + i] = UInt8(truncatingIfNeeded: v >> (24 - 8 * i)) }
        }

        /// Each record's (start, whole length) in file order: for pcapng, the packet blocks.
        func records(_ b: [UInt8]) -> [(start: Int, length: Int)] {
            var out: [(Int, Int)] = []
            var at = fileHeader
            while at + recordHeader <= b.count {
                let field = read32(b, at + lengthField)
                let length = pcapng ? field : recordHeader + field
                guard length > 0, at + length <= b.count else { break }
                if !pcapng || read32(b, at) == 6 { out.append((at, length)) }
                at += length
            }
            return out
        }
    }

    /// Applies `damage` to the record at `start` (whole length `length`); returns the bytes
    /// and the damaged record's span in the new file.
    static func damage(
        _ bytes: [UInt8], _ framing: Framing, record start: Int, length: Int,
        _ damage: Damage
    ) -> ([UInt8], Range<Int>) {
        var b = bytes
        let lengthAt = start + framing.lengthField
        switch damage {
        case .corruptLength:
            framing.write32(&b, lengthAt, 0x7fff_fff0)
            return (b, start..<(start + length))
        case .longerLength:
            framing.write32(&b, lengthAt, framing.read32(b, lengthAt) + 256)
            return (b, start..<(start + length))
        case .zeroedHeader:
            b.replaceSubrange(
                start..<(start + framing.recordHeader), with: repeatElement(0, count: framing.recordHeader))
            return (b, start..<(start + length))
        case .duplicatedHeader:
            b.insert(contentsOf: b[start..<(start + framing.recordHeader)], at: start)
            return (b, start..<(start + framing.recordHeader))
        case .splicedOut:
            let at = start + framing.dataStart + 1
            let n = min(10, max(1, start + length - at - 1))
            b.removeSubrange(at..<(at + n))
            return (b, start..<(start + length - n))
        case .inserted:
            b.insert(contentsOf: repeatElement(0xAB, count: 7), at: start + framing.dataStart + 1)
            return (b, start..<(start + length + 7))
        }
    }

    /// A beacon as found: record timestamp, address and frame, for comparing decodes.
    struct Found: Hashable {
        var time: Int64?
        var address: String
        var beacon: String
    }

    /// The beacons of a file by record index, and the skipped ranges and resynchronisations.
    static func decode(
        _ path: String
    ) throws -> (beacons: [Int: [Found]], accounting: DecodeAccounting, skipped: [SkippedBytes]) {
        var beacons: [Int: [Found]] = [:]
        let accounting = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { d in
                for beacon in d.beacons {
                    beacons[d.advertisement.record, default: []].append(
                        Found(
                            time: d.advertisement.timestampMicros, address: d.advertisement.address.description,
                            beacon: "\(beacon)"))
                }
            }, onIssue: { _ in })
        var skipped: [SkippedBytes] = []
        let reader = try CaptureFile.open(path)
        while let step = reader.next() {
            if case .malformed(let fault) = step, let s = fault.skipped { skipped.append(s) }
        }
        return (beacons, accounting, skipped)
    }

    static let captures = RepositoryPaths.wholeCaptures(suffixes: [".pcap", ".btsnoop"])

    /// A pcapng copy of a classic pcap, one Enhanced Packet Block per record (PcapngWriter).
    static func pcapngCopy(of path: String) throws -> [UInt8]? {
        let reader = try CaptureFile.open(path)
        guard let pcap = reader as? PcapFileReader else { return nil }
        var writer = PcapngWriter(linkType: pcap.linkType)
        while let step = reader.next() {
            guard case .record(let r) = step, let t = r.metadata.timestampMicros else { return nil }
            writer.append(Array(r.bytes), timestampMicros: t, originalLength: r.metadata.originalLength)
        }
        return writer.bytes
    }

    @Test(arguments: captures)
    func damagedRecordsLoseOnlyThemselves(_ capture: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let original = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/" + capture)))
        var variants: [(String, [UInt8])] = [(capture, original)]
        if capture.hasSuffix(".pcap"), let ng = try Self.pcapngCopy(of: RepositoryPaths.root + "/Captures/" + capture) {
            variants.append((capture + " as pcapng", ng))
        }
        for (name, bytes) in variants {
            let framing = try #require(Framing.of(bytes))
            let records = framing.records(bytes)
            guard records.count >= 12 else { continue }
            let clean = try Self.decode(dir.write(bytes, to: "clean"))
            #expect(
                clean.accounting.resynchronizations == 0 && clean.skipped.isEmpty, "\(name): a clean file skips nothing"
            )
            // Three places, damaged from the last so that earlier offsets stay put; record
            // numbers are 1-based in the decoder.
            let places = [records.count / 4, records.count / 2, 3 * records.count / 4]
            for damage in Damage.allCases {
                var damaged = bytes
                var spans: [Range<Int>] = []
                for place in places.reversed() {
                    let (b, span) = Self.damage(
                        damaged, framing, record: records[place].start, length: records[place].length, damage)
                    let shift = b.count - damaged.count
                    spans = spans.map { ($0.lowerBound + shift)..<($0.upperBound + shift) }
                    spans.insert(span, at: 0)
                    damaged = b
                }
                let label = "\(name), \(damage.rawValue)"
                let path = dir.write(damaged, to: "damaged")
                let result = try Self.decode(path)
                // Every beacon of an undamaged record is found, as often as in the clean file.
                var expected: [Found: Int] = [:]
                let damagedRecords = Set(places.map { $0 + 1 })
                for (record, found) in clean.beacons where !damagedRecords.contains(record) {
                    for f in found { expected[f, default: 0] += 1 }
                }
                var got: [Found: Int] = [:]
                for found in result.beacons.values { for f in found { got[f, default: 0] += 1 } }
                let missing = expected.filter { got[$0.key, default: 0] < $0.value }
                #expect(
                    missing.isEmpty,
                    Comment(
                        rawValue: "\(label): \(missing.count) beacons of undamaged records lost, e.g. "
                            + "\(missing.first.map { "\($0.key)" } ?? "")")
                )
                // One resynchronisation per place, its skipped bytes in the damaged record.
                #expect(result.accounting.resynchronizations == places.count, "\(label): \(result.skipped)")
                for span in spans {
                    #expect(
                        result.skipped.contains {
                            Int($0.range.lowerBound) < span.upperBound && Int($0.range.upperBound) > span.lowerBound
                        },
                        "\(label): no skipped range in the damaged record at \(span): \(result.skipped)")
                }
                #expect(result.accounting.bytesSkipped == result.skipped.reduce(0) { $0 + $1.count })
                #expect(result.accounting.balances, "\(label): read = decoded + ignored + malformed")
                let coverage = ContainerCoverageCheck.violations(path: path)
                #expect(coverage.isEmpty, "\(label): \(coverage)")
            }
        }
    }

    /// Hex text is read a line at a time: a damaged line is one malformed record and the
    /// lines after it decode as before.
    @Test func aDamagedHexTextLineLosesOnlyThatLine() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let line =
            "04 3e 53 02 02 03 01 01 00 00 ee ff c0 1f 02 01 06 03 03 aa fe 17 16 aa fe 00 ee 8b 0c a7 50 09 54 77 "
            + "cb 3e 77 00 00 00 00 00 01 00 00 c4 03 00 55 44 33 22 11 00 1e 02 01 06 1a ff 4c 00 02 15 e2 c5 "
            + "6d b5 df fb 48 d2 b0 60 d0 f5 a7 10 96 e0 00 01 00 02 c5 b8"
        var lines = Array(repeating: line, count: 9)
        lines[2] = "garbage line ###"
        lines[5] = String(line.prefix(40))  // cut short: the event's length overruns
        lines[7] = "04 3e 53 02" + String(line.dropFirst(11)).replacingOccurrences(of: "aa fe", with: "zz fe")
        let path = dir.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: "h.txt")
        let result = try Self.decode(path)
        // Two beacons (Eddystone-UID, iBeacon) per undamaged line.
        #expect(result.beacons.keys.sorted() == [1, 2, 4, 5, 7, 9])
        #expect(result.beacons.values.allSatisfy { $0.count == 2 })
        #expect(result.accounting.recordsRead == 9 && result.accounting.malformed == 3)
    }

    /// The issue's figure: a 100,000-advertisement capture (CaptureCorpus) with five record
    /// lengths set to 0x7fffffff keeps at least 99 % of its beacons, in btsnoop and pcap
    /// (docs/damaged-captures.md gives the figure).
    @Test func fiveCorruptLengthsIn100000AdvertisementsKeep99PercentOfTheBeacons() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let counts = try CaptureCorpus(advertisements: 100_000).write(
            btsnoop: dir.file("c.btsnoop"), pcap201: dir.file("c.pcap"))
        for name in ["c.btsnoop", "c.pcap"] {
            var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file(name))))
            let framing = try #require(Framing.of(bytes))
            let records = framing.records(bytes)
            #expect(records.count == counts.records)
            for k in 1...5 {
                framing.write32(&bytes, records[k * records.count / 6].start + framing.lengthField, 0x7fff_ffff)
            }
            let result = try Self.decode(dir.write(bytes, to: "damaged-" + name))
            let found = result.beacons.values.reduce(0) { $0 + $1.count }
            print(
                "\(name): \(found) of \(counts.beacons) beacons (\(Double(found * 10_000 / counts.beacons) / 100) %) "
                    + "with five corrupt record lengths; \(result.accounting.bytesSkipped) bytes skipped"
            )
            #expect(found * 100 >= counts.beacons * 99)
            #expect(result.accounting.resynchronizations == 5)
        }
    }
}
