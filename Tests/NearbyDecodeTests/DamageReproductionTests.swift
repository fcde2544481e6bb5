import Foundation
import NearbyCapture
import NearbyDecode
import NearbySynthesis
import NearbyTestSupport
import Testing

/// The damage users met and that the battery had not made (docs/damaged-captures.md): 4 KB
/// zeroed in the middle of a classic pcap, two flipped bits in a pcapng (a packet block's
/// type and, further on, another's interface id), and blocks of types a section may or may
/// not hold. On the synthesized corpus, and on the field captures converted by Wireshark's
/// `editcap` (skipped when either is absent). Expected values are the clean file's decode
/// (checked against TShark elsewhere) less what the damage covers, and the offsets of the
/// damaged blocks as this test finds them by walking the file itself.
@Suite struct DamageReproductionTests {
    /// An advertisement as found: its record's time, address and AD data.
    struct Found: Hashable {
        var time: Int64?
        var address: String
        var data: [UInt8]
    }

    /// The advertisements, beacons and container faults (record offset, reason) of a file.
    static func decode(
        _ path: String
    ) throws -> (found: [Found], beacons: Int, faults: [(Int64?, String)], a: DecodeAccounting) {
        var found: [Found] = []
        var beacons = 0
        var faults: [(Int64?, String)] = []
        let a = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { d in
                found.append(
                    Found(
                        time: d.advertisement.timestampMicros, address: d.advertisement.address.description,
                        data: d.advertisement.data.map { Array($0) } ?? []))
                beacons += d.beacons.count
            },
            onIssue: { issue in
                if issue.error.layer == .pcap { faults.append((issue.recordFileOffset, issue.error.reason)) }
            })
        return (found, beacons, faults, a)
    }

    /// The field btsnoop logs with more than 1,000 records, and `editcap` to convert them.
    static let fieldLogs: [String] = {
        guard let shared = RepositoryPaths.sharedCaptures, editcap != nil else { return [] }
        let names = [
            "Syed-Bipul-Rahman__bluethooth_light_controll/btsnoop_hci__750fad9b.log",
            "jpvargasdev__MachineSpiritTimetable/btsnoop_aaaa.log", "whoisbe__pongbot-mcp/btsnoop_hci.log.last",
        ]
        return names.map { shared + "/" + $0 }.filter { FileManager.default.fileExists(atPath: $0) }
    }()

    static let editcap: String? = ["/usr/bin/editcap", "/usr/local/bin/editcap"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// `source` converted by editcap to `format` (`pcap`, `pcapng`).
    static func convert(_ source: String, to format: String, in dir: TemporaryDirectory) throws -> String {
        let out = dir.file("converted." + format)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: editcap!)
        p.arguments = ["-F", format, source, out]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        return out
    }

    /// The synthesized corpus (20,000 advertisements) as classic pcap and as pcapng.
    static func corpus(in dir: TemporaryDirectory) throws -> (pcap: String, pcapng: String) {
        let pcap = dir.file("corpus.pcap")
        try CaptureCorpus(advertisements: 20_000).write(btsnoop: nil, pcap201: pcap)
        let reader = try CaptureFile.open(pcap)
        var w = PcapngWriter(linkType: .bluetoothHCIH4WithPHDR)
        while case .record(let r)? = reader.next() {
            w.append(Array(r.bytes), timestampMicros: r.metadata.timestampMicros ?? 0)
        }
        return (pcap, dir.write(w.bytes, to: "corpus.pcapng"))
    }

    @Test func fourZeroedKilobytesInAClassicPcapKeep99PercentOfTheBeacons() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var files = [try Self.corpus(in: dir).pcap]
        for log in Self.fieldLogs { files.append(try Self.convert(log, to: "pcap", in: dir)) }
        for (i, file) in files.enumerated() {
            let cleanBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            let clean = try Self.decode(file)
            var bytes = cleanBytes
            bytes.replaceSubrange((bytes.count / 2)..<(bytes.count / 2 + 4_096), with: repeatElement(0, count: 4_096))
            let damaged = try Self.decode(dir.write(bytes, to: "zeroed-\(i).pcap"))
            let label = i == 0 ? "corpus" : Self.fieldLogs[i - 1]
            #expect(
                damaged.found.count * 100 >= clean.found.count * 99,
                "\(label): \(damaged.found.count) of \(clean.found.count)")
            #expect(damaged.beacons * 100 >= clean.beacons * 99, "\(label): \(damaged.beacons) of \(clean.beacons)")
            // Only the reports of the record the zeros start in (its header whole, its data
            // zeroed) and of chains that lost their other part read otherwise than in the
            // clean file.
            let changed = Set(damaged.found).subtracting(clean.found)
            #expect(changed.count <= 4, "\(label): \(changed.count) advertisements that are not in the file")
            // One stretch skipped: the zeros and the records they cut (the longest here is under 300 bytes).
            #expect(damaged.a.resynchronizations == 1 && damaged.faults.count == 1, "\(label): \(damaged.faults)")
            #expect(damaged.a.bytesSkipped >= 3_500 && damaged.a.bytesSkipped <= 4_096 + 600, "\(label)")
            if let at = damaged.faults.first?.0 {
                #expect(at >= Int64(bytes.count / 2 - 300) && at < Int64(bytes.count / 2 + 4_096), "\(label): at \(at)")
            }
        }
    }

    /// The packet blocks of a little-endian pcapng file: offset and total length.
    static func packetBlocks(_ b: [UInt8]) -> [(offset: Int, length: Int)] {
        func u32(_ at: Int) -> Int { Int(b[at]) | Int(b[at + 1]) << 8 | Int(b[at + 2]) << 16 | Int(b[at + 3]) << 24 }
        var out: [(Int, Int)] = []
        var at = 0
        while at + 12 <= b.count {
            if u32(at) == 6 { out.append((at, u32(at + 4))) }
            at += u32(at + 4)
        }
        return out
    }

    @Test func twoFlippedBitsInAPcapngDeliverNoAdvertisementTwice() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var files = [try Self.corpus(in: dir).pcapng]
        for log in Self.fieldLogs { files.append(try Self.convert(log, to: "pcapng", in: dir)) }
        for (i, file) in files.enumerated() {
            let cleanBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
            let clean = try Self.decode(file)
            let blocks = Self.packetBlocks(cleanBytes)
            let first = blocks.count / 3
            // The second block right after the first, about 10 KB and about 90 KB later.
            for gap in [0, 10_000, 90_000] {
                guard
                    let second = blocks.indices.first(where: {
                        $0 > first && blocks[$0].offset >= blocks[first].offset + gap
                    })
                else { continue }
                var bytes = cleanBytes
                bytes[blocks[first].offset + 3] ^= 0x10  // block type 6 → 0x10000006
                bytes[blocks[second].offset + 8 + 3] ^= 0x10  // interface 0 → 0x10000000
                let damaged = try Self.decode(dir.write(bytes, to: "flipped-\(i)-\(gap).pcapng"))
                let label = "\(i == 0 ? "corpus" : Self.fieldLogs[i - 1]), gap \(gap)"
                #expect(damaged.a.recordsRead == clean.a.recordsRead, "\(label): every block read once")
                #expect(damaged.a.resynchronizations == 2, "\(label)")
                var cleanCounts: [Found: Int] = [:]
                for f in clean.found { cleanCounts[f, default: 0] += 1 }
                var counts: [Found: Int] = [:]
                for f in damaged.found { counts[f, default: 0] += 1 }
                let twice = counts.filter { entry in cleanCounts[entry.key].map { entry.value > $0 } ?? false }
                #expect(twice.isEmpty, "\(label): delivered more often than the file holds them: \(twice)")
                // Only an extended report whose chain lost its other part to the damage reads
                // otherwise than in the clean file.
                #expect(counts.keys.filter { cleanCounts[$0] == nil }.count <= 2, "\(label)")
                #expect(
                    damaged.found.count >= clean.found.count - 6,
                    "\(label): \(damaged.found.count) of \(clean.found.count)")
                #expect(
                    damaged.faults.map(\.0) == [Int64(blocks[first].offset), Int64(blocks[second].offset)],
                    "\(label): \(damaged.faults)")
                #expect(damaged.faults.first?.1.contains("block type 0x10000006") == true, "\(label)")
                #expect(damaged.faults.last?.1.contains("interface") == true, "\(label)")
            }
        }
    }

    /// A block of a type the pcapng draft registers, or of the local-use range (top bit set),
    /// is passed over in silence; a block of a reserved type is a damaged block: one
    /// malformed record, its bytes skipped, the packets around it read.
    @Test func aBlockOfAReservedTypeIsDamageAndOneOfALegalTypeIsNot() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let packet = [0, 0, 0, 1] + ReferenceVectors.twoReportEvent
        func file(_ types: [UInt32]) -> (path: String, offsets: [Int]) {
            var w = PcapngWriter(linkType: .bluetoothHCIH4WithPHDR)
            var offsets: [Int] = []
            for (i, type) in types.enumerated() {
                w.append(packet, timestampMicros: 1_700_000_000_000_000 + Int64(i))
                offsets.append(w.bytes.count)
                w.appendBlock(type: type, body: [UInt8](repeating: 0x5A, count: 20))
            }
            w.append(packet, timestampMicros: 1_700_000_000_100_000)
            return (dir.write(w.bytes, to: "blocks-\(types.count)-\(types.first ?? 0).pcapng"), offsets)
        }
        // Local use, Decryption Secrets, Sysdig event, custom, Name Resolution.
        let legal = file([0x8000_0123, 0xA, 0x204, 0xBAD, 0x4000_0BAD])
        let clean = try Self.decode(legal.path)
        #expect(clean.a.malformed == 0 && clean.faults.isEmpty && clean.a.recordsRead == 6)
        #expect(clean.found.count == 12)
        // Unassigned, reserved for corruption detection, 0 and an Enhanced Packet Block's type
        // with a flipped bit.
        let reserved = file([0x0000_0B00, 0x0A0D_0A00, 0, 0x1000_0006])
        let damaged = try Self.decode(reserved.path)
        #expect(damaged.a.malformed == 4 && damaged.a.recordsRead == 9)
        #expect(damaged.found.count == 10)
        #expect(damaged.faults.map(\.0) == reserved.offsets.map { Int64($0) })
        #expect(damaged.a.bytesSkipped == 4 * 32 && damaged.a.resynchronizations == 4)
    }
}
