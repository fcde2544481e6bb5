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
}
