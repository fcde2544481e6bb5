import Foundation
import NearbyBytes
import NearbyCapture
import NearbyDecode
import NearbyDecodeSession
import NearbyTestSupport
import Testing

/// Damaged input: a clear message (file, record, byte offset, reason), the rest still
/// decoded, the accounting adding up; exit status 1 for unreadable files, 2 when a record
/// could not be decoded (DAMAGE-18), with a closing warning per file: the outcomes `decode`
/// turns into those statuses.
@Suite struct BadInputTests {
    struct Run {
        var status: DecodeSession.Outcome
        var lines: [String]
        var diagnostics: [String]
        var total: [String: Any]
        var records: [String: Int] { total["records"] as! [String: Int] }
        var malformed: [String: Int] { total["malformed"] as! [String: Int] }
    }

    func run(_ paths: [String]) throws -> Run {
        var lines: [String] = []
        var diagnostics: [String] = []
        let status = DecodeSession(summary: true).run(
            paths: paths, output: { lines.append($0) }, diagnostics: { diagnostics.append($0) })
        let summary = try JSONSerialization.jsonObject(with: Data(lines.removeLast().utf8)) as! [String: Any]
        let total = (summary["summary"] as! [String: Any])["total"] as! [String: Any]
        let r = total["records"] as! [String: Int]
        #expect(r["read"] == r["decoded"]! + r["ignored"]! + r["malformed"]!, "read = decoded + ignored + malformed")
        return Run(status: status, lines: lines, diagnostics: diagnostics, total: total)
    }

    /// RECORDS-2: an unreadable file yields no records and the others are still read.
    @Test func emptyAndNonCaptureFilesFailTheRunButNotTheOthers() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let good = dir.write(ReferenceVectors.twoReportBtsnoopFile, to: "good.log")
        let empty = dir.write([], to: "empty.log")
        let prose = dir.write(Array("This is not a capture.\n".utf8), to: "notes.txt")
        let r = try run([empty, good, prose])
        #expect(r.status == .fileUnreadable)
        #expect(r.lines.count == 2)
        #expect(
            r.diagnostics == [
                "error: \(empty): empty file",
                "error: \(prose): not a capture: neither pcap, pcapng, btsnoop nor hex text",
            ])
    }

    /// BTSNOOP-11, DAMAGE-13.
    @Test func aTruncatedFinalBtsnoopRecordIsReportedWithItsOffset() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = ReferenceVectors.twoReportBtsnoopFile + Array(ReferenceVectors.twoReportBtsnoopFile[16..<26])
        let r = try run([dir.write(file, to: "cut.log")])
        #expect(r.status == .partiallyDecoded)
        #expect(r.lines.count == 2)
        #expect(r.records == ["read": 2, "decoded": 1, "ignored": 0, "malformed": 1])
        #expect(r.malformed == ["btsnoop/truncated": 1])
        // The second record header (at byte 126) holds 10 of its 24 bytes: the file ends in
        // the flags field (offset 8).
        #expect(
            r.diagnostics == [
                "\(dir.file("cut.log")): record 2, byte 134 of the file (offset 8 in the record): btsnoop/truncated: "
                    + "record header: the file ends after 10 of 24 bytes; skipped bytes 126..<136 (10 bytes); no "
                    + "plausible record follows",
                "warning: \(dir.file("cut.log")): 1 of 2 records could not be decoded; 10 bytes of damage skipped, 0 "
                    + "resynchronisations",
            ])
    }

    /// BTSNOOP-9.
    @Test func aRecordLengthThatOverrunsTheFileIsReported() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var second = Array(ReferenceVectors.twoReportBtsnoopFile[16...])
        second[6] = 0x10  // included length 0x1056
        let r = try run([dir.write(ReferenceVectors.twoReportBtsnoopFile + second, to: "long.log")])
        #expect(r.records == ["read": 2, "decoded": 1, "ignored": 0, "malformed": 1])
        #expect(r.malformed == ["btsnoop/length-overrun": 1])
        #expect(r.status == .partiallyDecoded)
        #expect(
            r.diagnostics.first?.contains(
                "record 2, byte 130 of the file (offset 4 in the record): btsnoop/length-overrun: record header: "
                    + "included length 4182 overruns the file (86 bytes left)"
            ) == true)
    }

    /// PCAP-11.
    @Test func aTruncatedFinalPcapRecordIsReportedByLibpcap() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let (_, bytes) = try dir.writePcap(
            [ReferenceVectors.twoReportPcap201Record, ReferenceVectors.twoReportPcap201Record],
            linkType: .bluetoothHCIH4WithPHDR, to: "full.pcap")
        let r = try run([dir.write(Array(bytes.dropLast(5)), to: "cut.pcap")])
        #expect(r.records == ["read": 2, "decoded": 1, "ignored": 0, "malformed": 1])
        #expect(r.malformed == ["pcap/truncated": 1])
        #expect(r.lines.count == 2)
        #expect(r.status == .partiallyDecoded)
        #expect(
            r.diagnostics.count == 2 && r.diagnostics[0].contains("record 2")
                && r.diagnostics[0].contains("truncated dump file"))
        #expect(
            r.diagnostics.last?.hasPrefix("warning: \(dir.file("cut.pcap")): 1 of 2 records could not be decoded")
                == true)
    }

    /// AD-3, RECORDS-7.
    @Test func anADStructureOverrunningItsReportIsMalformedButTheRestDecodes() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let badData: [UInt8] = [0x02, 0x01, 0x06, 0x1F, 0xFF, 0x4C, 0x00]
        let bad = FixtureEvents.legacyReportEvent([
            FixtureEvents.legacyReport(
                eventType: 0, addressType: 0, address: "00:00:00:00:00:09", data: badData, rssi: -40)
        ])
        let path = dir.writeReceivedEvents([bad, ReferenceVectors.twoReportEvent], to: "ad.log")
        let r = try run([path])
        #expect(r.records == ["read": 2, "decoded": 1, "ignored": 0, "malformed": 1])
        #expect(r.malformed == ["ad/length-overrun": 1])
        #expect(r.lines.count == 3)
        #expect(r.lines[0].contains(#""errors":[{"code":"length-overrun","layer":"ad","offset":17"#))
        // Record 1 starts at file byte 40; its data at record offset 14 (H4, code, length, subevent,
        // count, type, address type, address, data length), the bad AD length byte 3 further.
        #expect(
            r.diagnostics == [
                "\(path): record 1, byte 57 of the file (offset 17 in the record): ad/length-overrun: AD structure: "
                    + "length 31 overruns its container (3 bytes left)"
            ])
    }

    /// HCI-EXT-18.
    @Test func anExtendedReportWhoseDataLengthLiesIsMalformed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var lying = ReferenceVectors.eidExtendedReportEvent
        lying[28] = 0x40  // Data_Length 64, 21 bytes present
        let path = dir.writeReceivedEvents([lying, ReferenceVectors.eidExtendedReportEvent], to: "ext.log")
        let r = try run([path])
        #expect(r.records == ["read": 2, "decoded": 1, "ignored": 0, "malformed": 1])
        #expect(r.malformed == ["ext-adv-report/length-overrun": 1])
        #expect(r.lines.count == 1)
        #expect(r.status == .partiallyDecoded, "a report that cannot be framed is a record not decoded")
        #expect(
            r.diagnostics == [
                "\(path): record 1, byte 68 of the file (offset 28 in the record): ext-adv-report/length-overrun: "
                    + "Data: length 64 overruns its container (21 bytes left)",
                "warning: \(path): 1 of 2 records could not be decoded",
            ])
    }

    /// HCI-ADV-3.
    @Test func anEventWhoseLengthLiesIsMalformed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var lying = ReferenceVectors.twoReportEvent
        lying[2] = 0x20  // parameter length shorter than the bytes present
        let r = try run([dir.write(Array((lying.map { String(format: "%02x", $0) }.joined() + "\n").utf8), to: "e.txt")]
        )
        #expect(r.malformed == ["hci-event/trailing-bytes": 1])
        #expect(r.diagnostics.first?.contains("record 1, line 1 (offset 35 in the record)") == true)
    }
}
