import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing

/// `decode` on damaged captures, through the built executable: what the user is told.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct DamagedCaptureCommandTests {
    /// A pcap fault in a record header names the byte of the field itself, as btsnoop faults
    /// do: the second record's incl_len (offset 8 of its 16-byte header; the pcap file format,
    /// section 4) set to 0x7fffffff.
    @Test func aBadPcapRecordLengthIsReportedAtTheLengthField() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let event = ReferenceVectors.twoReportEvent
        var (_, bytes) = try dir.writePcap([event, event], linkType: .bluetoothHCIH4, to: "two.pcap")
        let second = 24 + 16 + event.count
        bytes.replaceSubrange((second + 8)..<(second + 12), with: [0xFF, 0xFF, 0xFF, 0x7F])
        let path = dir.write(bytes, to: "bad.pcap")
        let r = try CommandLineTool.run(["decode", "--summary", path])
        #expect(
            r.stderr.contains(
                "\(path): record 2, byte \(second + 8) of the file (offset 8 in the record): pcap/invalid-value"),
            "\(r.stderr)")
    }

    /// A btsnoop whose 300th record has its included length (offset 4 of the 24-byte record
    /// header; BTSNOOP-3, BTSNOOP-8) set to 0x7fffffff: the record is skipped, reading goes on at
    /// the next record, standard error names the byte range and ends with a warning, and the
    /// exit status is 2 (docs/damaged-captures.md).
    static func damagedBtsnoop(in dir: TemporaryDirectory) throws -> (path: String, start: Int, end: Int, records: Int)
    {
        var bytes = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/synthetic/crowded/crowded.btsnoop"))
        )
        var at = 16, starts: [Int] = []
        while at + 24 <= bytes.count {
            starts.append(at)
            at += 24 + bytes[(at + 4)..<(at + 8)].reduce(0) { $0 << 8 | Int($1) }
        }
        let start = starts[299], end = starts[300]
        bytes.replaceSubrange((start + 4)..<(start + 8), with: [0x7F, 0xFF, 0xFF, 0xFF])
        return (dir.write(bytes, to: "crowded.btsnoop"), start, end, starts.count)
    }

    @Test func decodeSkipsADamagedRecordSaysSoAndExitsWithStatus2() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (path, start, end, records) = try Self.damagedBtsnoop(in: dir)
        let r = try CommandLineTool.run(["decode", "--summary", path])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "\(path): record 300, byte \(start + 4) of the file (offset 4 in the record): btsnoop/invalid-value: "
                    + "record header: included length 2147483647 exceeds the 262144-byte limit; skipped bytes "
                    + "\(start)..<\(end) (\(end - start) bytes); reading went on at byte \(end)"
            ), "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: \(path): 1 of \(records) records could not be decoded; \(end - start) bytes of damage "
                    + "skipped, 1 resynchronisation"
            ), "\(r.stderr)")
        let summary = try #require(r.stdoutLines.last)
        #expect(summary.contains("\"skipped\":{\"bytes\":\(end - start),\"resynchronizations\":1}"), "\(summary)")
        #expect(summary.contains("\"read\":\(records)"), "every record is read, the damaged one as malformed")
    }

    @Test func replayOfADamagedCaptureWarnsAndExitsWithStatus2() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (path, _, _, records) = try Self.damagedBtsnoop(in: dir)
        let r = try CommandLineTool.run([
            "replay", "--scenario", RepositoryPaths.root + "/Captures/synthetic/crowded.scenario.json",
            "--capture", path,
        ])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(!r.stdoutLines.isEmpty, "the callbacks are still printed")
        #expect(r.stderr.contains("warning: captures: 1 of \(records) records could not be decoded"), "\(r.stderr)")
    }

    /// A pcap of a link type the decoder does not support (LINKTYPE 1, Ethernet) is read
    /// but none of its records decoded: said on standard error, exit status 2.
    @Test func anUnsupportedLinkTypeIsSaidAndExitsWithStatus2() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (path, _) = try dir.writePcap(
            [[UInt8](repeating: 0, count: 60), [UInt8](repeating: 1, count: 60)],
            linkType: LinkType(rawValue: 1), to: "ether.pcap")
        let r = try CommandLineTool.run(["decode", path])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(
            r.stderr.contains(
                "warning: \(path): 2 of 2 records could not be decoded (2 in a link type or datalink that is not "
                    + "supported)"
            ), "\(r.stderr)")
    }

    @Test func aCleanCaptureExitsWith0AndNoWarning() throws {
        let r = try CommandLineTool.run([
            "decode", RepositoryPaths.root + "/Captures/synthetic/crowded/crowded.btsnoop",
        ])
        #expect(r.status == 0 && !r.stderr.contains("warning"), "\(r.stderr)")
    }
}
