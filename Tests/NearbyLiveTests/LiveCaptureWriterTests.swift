import NearbyCapture
import NearbyDecode
import NearbyLive
import NearbyTestSupport
import Testing

/// What `--write` keeps: the records of a live session, read back by the file readers with
/// their bytes, times and directions (pcap and pcapng: LINKTYPE 201 as the session framed
/// them; btsnoop: datalink 1002 with the direction and packet kind in the flags, BTSNOOP-5).
@Suite struct LiveCaptureWriterTests {
    static let t0: Int64 = 1_795_600_000_000_001
    /// (H4 packet, received) as a host exchanges them: Reset, its completion, an iBeacon
    /// report, ACL data received.
    static let exchange: [([UInt8], Bool)] = [
        ([0x01, 0x03, 0x0C, 0x00], false),
        ([0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00], true),
        (
            FixtureEvents.legacyReportEvent([
                FixtureEvents.legacyReport(
                    eventType: 3, addressType: 1, address: "c4:7d:00:00:0b:03", data: ReferenceVectors.iBeaconAdvert,
                    rssi: -40)
            ]), true
        ),
        (FixtureEvents.aclPacket, true),
    ]

    static func records() -> [CaptureRecord] {
        exchange.enumerated().map { i, e in
            CaptureRecord(
                index: i + 1, timestampMicros: t0 + Int64(i) * 1_000_250, encapsulation: .pcap(.bluetoothHCIH4WithPHDR),
                bytes: ([0, 0, 0, e.1 ? 1 : 0] + e.0)[...])
        }
    }

    /// Writes `records()` to `name` in `dir` and reads the file back.
    func roundTrip(_ name: String, in dir: TemporaryDirectory) throws -> [CaptureRecord] {
        let writer = try LiveCaptureWriter(path: dir.file(name), linkType: .bluetoothHCIH4WithPHDR, source: "test")
        for r in Self.records() { try writer.write(r) }
        try writer.close()
        return try readBack(dir.file(name))
    }

    func readBack(_ path: String) throws -> [CaptureRecord] {
        let reader = try CaptureFile.open(path)
        var out: [CaptureRecord] = []
        while case .record(let r) = reader.next() { out.append(r) }
        return out
    }

    @Test(arguments: ["live.pcapng", "live.pcap"])
    func pcapFilesKeepEveryRecordAsTheSessionFramedIt(_ name: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let back = try roundTrip(name, in: dir)
        #expect(back.map { Array($0.bytes) } == Self.records().map { Array($0.bytes) })
        #expect(back.map(\.metadata.timestampMicros) == Self.records().map(\.metadata.timestampMicros))
        #expect(back.allSatisfy { $0.metadata.encapsulation == .pcap(.bluetoothHCIH4WithPHDR) })
    }

    @Test(arguments: ["live.btsnoop", "live.log", "live.cfa"])
    func btsnoopKeepsTheDirectionAndKindInTheFlags(_ name: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let back = try roundTrip(name, in: dir)
        #expect(back.map { Array($0.bytes) } == Self.exchange.map(\.0))
        #expect(back.map(\.metadata.timestampMicros) == Self.records().map(\.metadata.timestampMicros))
        // Sent command 2, received event 3, received ACL data 1.
        let flags: [UInt32] = [2, 3, 3, 1]
        #expect(back.map(\.metadata.encapsulation) == flags.map { .btsnoop(.hciUART, flags: $0) })
    }

    @Test func theWrittenFileDecodesAsTheSessionDid() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var accountings: [DecodeAccounting] = []
        for name in ["a.pcapng", "a.btsnoop"] {
            _ = try roundTrip(name, in: dir)
            accountings.append(
                try CaptureDecoder.decode(path: dir.file(name), onAdvertisement: { _ in }, onIssue: { _ in }))
        }
        for a in accountings {
            // One report decoded; the command, the completion and ACL data ignored.
            #expect(a.recordsRead == 4 && a.decoded == 1 && a.ignored == 3 && a.malformed == 0)
            #expect(a.beaconsByType == ["ibeacon": 1])
        }
    }

    @Test func monitorRecordsBecomeDatalink2001WithIndexAndOpcodeInTheFlags() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let writer = try LiveCaptureWriter(path: dir.file("m.btsnoop"), linkType: .bluetoothLinuxMonitor, source: "t")
        // Controller 1, opcode 3 (event), then the event without an H4 indicator.
        let payload: [UInt8] = [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00]
        try writer.write(
            CaptureRecord(
                index: 1, timestampMicros: Self.t0, encapsulation: .pcap(.bluetoothLinuxMonitor),
                bytes: ([0x00, 0x01, 0x00, 0x03] + payload)[...]))
        try writer.close()
        let back = try readBack(dir.file("m.btsnoop"))
        #expect(back.map { Array($0.bytes) } == [payload])
        #expect(back.first?.metadata.encapsulation == .btsnoop(.linuxMonitor, flags: 0x0001_0003))
    }

    @Test func aNameWithoutACaptureExtensionIsRefused() {
        #expect(LiveCaptureWriter.format(of: "/tmp/x.txt") == nil)
        #expect(LiveCaptureWriter.format(of: "/tmp/x.PCAPNG") == .pcapng)
        #expect(throws: LiveError.self) {
            try LiveCaptureWriter(path: "/tmp/capture", linkType: .bluetoothHCIH4WithPHDR, source: "t")
        }
    }
}
