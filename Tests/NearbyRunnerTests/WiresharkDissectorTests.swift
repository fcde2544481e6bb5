import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing

/// The Wireshark plugin (Interop/wireshark/nearby_beacons.lua) against the reference
/// decoder: run in Debian's TShark over every capture in Captures/ and over the frame
/// vectors, it must show each beacon with the values `decode` prints for the same record,
/// and each malformed frame with the fault the vector names. The expected plugin field of
/// each decode key is written from the field list of the plugin's issue (#28), not from the
/// plugin's output. CI installs TShark (Scripts/bootstrap); elsewhere the tests skip without it.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct WiresharkDissectorTests {
    static var tsharkPresent: Bool {
        if TShark.path != nil { return true }
        if getenv("CI") != nil { Issue.record("CI must install tshark (Scripts/bootstrap)") }
        return false
    }

    @Test func pluginShowsWhatDecodePrintsForEveryBundledCapture() throws {
        guard Self.tsharkPresent else { return }
        let root = RepositoryPaths.root + "/Captures"
        let captures = RepositoryPaths.wholeCaptures(suffixes: [".pcap", ".pcapng", ".btsnoop"])
        #expect(captures.count >= 40)
        var tally = DissectorComparison.Tally()
        for name in captures {
            let path = root + "/" + name
            let decoded = try CommandLineTool.run(["decode", path])
            #expect(decoded.status == 0, "\(name): \(decoded.stderr)")
            var comparison = DissectorComparison(capture: name, decodeLines: decoded.stdoutLines)
            comparison.compare(try TShark.dissect(path), tally: &tally)
        }
        print("wireshark plugin: \(tally.summary) in \(captures.count) captures")
        #expect(tally.beacons > 5000 && tally.fields > 25_000)
    }

    @Test func pluginGivesEveryFrameVectorItsValuesOrItsFault() throws {
        guard Self.tsharkPresent else { return }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let vectors = try FrameVectorCapture(directory: RepositoryPaths.root + "/Vectors/frames")
        #expect(vectors.h4.count + vectors.linkLayer.count >= 30)
        var tally = DissectorComparison.Tally()
        for (records, linkType, name) in [
            (vectors.h4, LinkType.bluetoothHCIH4WithPHDR, "frames-201.pcap"),
            (vectors.linkLayer, LinkType.bluetoothLELL, "frames-251.pcap"),
        ] {
            let capture = try dir.writePcap(records.map(\.record), linkType: linkType, to: name).path
            let frames = try TShark.dissect(capture)
            #expect(frames.count == records.count)
            for (vector, frame) in zip(records, frames) {
                DissectorComparison.compare(vector: vector, frame: frame, tally: &tally)
            }
        }
        print("wireshark plugin: \(tally.summary) over the frame vectors")
        #expect(tally.faults >= 6)
    }

    /// An LE link-layer packet (LINKTYPE 251) whose PDU length (36) runs past the frame (20
    /// bytes after it): docs/spec/hci.md LL-3 makes it `ll/length-overrun`, which `decode`
    /// reports; Wireshark dissects the bytes there are, so its AD entries look cut, and the
    /// plugin must name the link layer's fault, not an AD structure's.
    @Test func pluginNamesALinkLayerPDUCutShortAsDecodeDoes() throws {
        guard Self.tsharkPresent else { return }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let advA: [UInt8] = [0x13, 0x71, 0xDA, 0x7D, 0x1A, 0x00]
        let ad: [UInt8] = [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15] + Array(0..<16) + [0, 1, 0, 2, 0xC5]
        let payload = advA + ad
        let packet = [0xD6, 0xBE, 0x89, 0x8E, 0x42, UInt8(payload.count)] + payload.prefix(20)
        let capture = try dir.writePcap([packet], linkType: .bluetoothLELL, to: "cut.pcap").path
        let decoded = try CommandLineTool.run(["decode", capture])
        #expect(
            decoded.stderr.contains("ll/length-overrun: PDU payload: length 36 overruns its container (20 bytes left)"))
        let frames = try TShark.dissect(capture)
        let faults = frames.first?.items.compactMap { $0["nearby.fault"] } ?? []
        #expect(faults == ["ll/length-overrun"], "\(frames.first?.items ?? [])")
        let reasons = frames.first?.items.compactMap { $0["nearby.fault.reason"] } ?? []
        #expect(reasons == ["PDU payload: length 36 overruns its container (20 bytes left)"])
    }
}
