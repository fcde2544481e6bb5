import NearbyTestSupport
import Testing

/// `decode` on damaged captures, through the built executable: what the user is told.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct DamagedCaptureCommandTests {
    /// A pcap fault in a record header names the byte of the field itself, as btsnoop faults
    /// do: the second record's incl_len (offset 8 of its 16-byte header; the pcap file format,
    /// section 4) set to 0x7fffffff.
    @Test func aBadPcapRecordLengthIsReportedAtTheLengthField() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let event = ReferenceVectors.twoReportEvent
        var (_, bytes) = try dir.writePcap([event, event], linkType: .bluetoothHCIH4, to: "two.pcap")
        let second = 24 + 16 + event.count
        bytes.replaceSubrange((second + 8)..<(second + 12), with: [0xFF, 0xFF, 0xFF, 0x7F])
        let path = dir.write(bytes, to: "bad.pcap")
        let r = try CommandLineTool.run(["decode", "--summary", path])
        #expect(r.stderr.contains("\(path): record 2, byte \(second + 8) of the file (offset 8 in the record): pcap/invalid-value"), "\(r.stderr)")
    }
}
