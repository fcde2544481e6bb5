import Foundation
import NearbyCapture
import NearbyDecode
import NearbySynthesis
import NearbyTestSupport
import Testing

/// The benchmark corpus is what it says: decoded independently, both files hold the counted
/// advertisements and beacons in the same records, chained extended data reassembles, and
/// the same seed writes the same bytes.
@Suite struct CaptureCorpusTests {
    struct Decoded: Equatable {
        var records = 0
        var advertisements = 0
        var beacons = 0
        var reassembled = 0
        var types: Set<String> = []
    }

    static func decode(_ path: String) throws -> Decoded {
        var d = Decoded()
        let a = try CaptureDecoder.decode(
            path: path,
            onAdvertisement: { adv in
                d.advertisements += 1
                d.beacons += adv.beacons.isEmpty ? 0 : 1
                if (adv.advertisement.extended?.fragments ?? 1) > 1 { d.reassembled += 1 }
                for b in adv.beacons { d.types.insert(b.typeName) }
            }, onIssue: { Issue.record("no fault expected: \($0)") })
        #expect(a.balances && a.malformed == 0)
        d.records = a.recordsRead
        return d
    }

    @Test func bothFilesHoldTheCountedAdvertisementsAndBeacons() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let counts = try CaptureCorpus(advertisements: 5_000).write(
            btsnoop: dir.file("c.btsnoop"), pcap201: dir.file("c.pcap"))
        #expect(counts.advertisements == 5_000)
        let snoop = try Self.decode(dir.file("c.btsnoop")), pcap = try Self.decode(dir.file("c.pcap"))
        #expect(snoop == pcap)
        #expect(
            snoop.records == counts.records && snoop.advertisements == counts.advertisements
                && snoop.beacons == counts.beacons)
        #expect(snoop.reassembled > 0, "some extended data comes in two chained reports")
        #expect(
            snoop.types == [
                "eddystone-uid", "eddystone-url", "eddystone-tlm", "eddystone-eid", "ibeacon", "altbeacon", "token-v1",
            ])
        let share = Double(counts.beacons) / Double(counts.advertisements)
        #expect(share > 0.65 && share < 0.75, "70 % of advertisements carry a beacon: \(share)")
    }

    @Test func theSameSeedWritesTheSameBytes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        try CaptureCorpus(advertisements: 1_000).write(btsnoop: dir.file("a.btsnoop"), pcap201: nil)
        try CaptureCorpus(advertisements: 1_000).write(btsnoop: dir.file("b.btsnoop"), pcap201: nil)
        let a = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("a.btsnoop"))))
        let b = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.file("b.btsnoop"))))
        #expect(a == b && a.count > 10_000)
    }
}
