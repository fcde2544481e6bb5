import Foundation
import NearbyCapture
import NearbyFuzzTargets
import NearbySynthesis
import NearbyTestSupport
import Testing

/// Every damage class of `CaptureDamage` (zero a block, duplicate a block, insert random
/// bytes, flip header bits, flip length bits, concatenate, truncate mid-record) on every
/// container (btsnoop; classic pcap in both byte orders, µs and ns; pcapng in both byte
/// orders, one and three interfaces; hex text), each at places drawn from 60 seeds: the
/// damage loses only the records that overlap it, no byte is read twice, and every fault
/// lies at the damage (`DamageLocalityCheck`: DAMAGE-1, DAMAGE-17).
@Suite struct DamageBatteryTests {
    /// The same records (a synthesized phone log: HCI events and commands, H4) in each
    /// container: name and bytes.
    static let containers: [(String, [UInt8])] = {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let snoop = dir.file("c.btsnoop")
        _ = try? CaptureCorpus(advertisements: 300).write(btsnoop: snoop, pcap201: nil)
        var records: [(bytes: [UInt8], time: Int64, sent: Bool)] = []
        if let reader = try? CaptureFile.open(snoop) {
            while case .record(let r)? = reader.next() {
                guard case .btsnoop(_, let flags) = r.metadata.encapsulation else { continue }
                records.append((Array(r.bytes), r.metadata.timestampMicros ?? 0, flags & 1 == 0 && flags & 2 != 0))
            }
        }
        var out: [(String, [UInt8])] = [
            ("btsnoop", (try? Data(contentsOf: URL(fileURLWithPath: snoop))).map(Array.init) ?? [])
        ]
        for (big, ns) in [(false, false), (false, true), (true, false), (true, true)] {
            var w = PcapBytesWriter(linkType: .bluetoothHCIH4WithPHDR, bigEndian: big, nanoseconds: ns)
            for r in records { w.append([0, 0, 0, r.sent ? 0 : 1] + r.bytes, timestampMicros: r.time) }
            out.append(("pcap \(big ? "big" : "little")-endian \(ns ? "ns" : "µs")", w.bytes))
        }
        for (big, interfaces) in [(false, 1), (true, 3)] {
            var w = PcapngWriter(linkType: .bluetoothHCIH4WithPHDR, bigEndian: big, interfaces: interfaces)
            for (i, r) in records.enumerated() {
                w.append([0, 0, 0, r.sent ? 0 : 1] + r.bytes, timestampMicros: r.time, interface: i % interfaces)
            }
            out.append(("pcapng \(big ? "big" : "little")-endian, \(interfaces) interfaces", w.bytes))
        }
        let lines = records.map { $0.bytes.map { String(format: "%02x", $0) }.joined(separator: " ") }
        out.append(("hex text", Array((lines.joined(separator: "\n") + "\n").utf8)))
        return out
    }()

    struct Case: CustomTestStringConvertible, Sendable {
        var container: String
        var kind: CaptureDamage.Kind
        var testDescription: String { "\(container), \(kind.rawValue)" }
    }

    static let cases = containers.flatMap { c in CaptureDamage.Kind.allCases.map { Case(container: c.0, kind: $0) } }

    @Test(arguments: cases)
    func damageLosesOnlyTheRecordsItTouches(_ c: Case) throws {
        let clean = try #require(Self.containers.first { $0.0 == c.container }?.1)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(clean, to: "clean")
        let layout = try #require(CaptureLayout(path: path, bytes: clean))
        #expect(layout.records.count > 100, "the clean file reads whole")
        for seed in 1...60 {
            let problems = DamageLocalityCheck.violations(
                clean: clean, path: path, kind: c.kind, seed: UInt64(seed), damagedPath: dir.file("damaged"))
            #expect(problems.isEmpty, "seed \(seed): \(problems)")
        }
    }
}
