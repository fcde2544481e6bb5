import Foundation
import NearbyTestSupport
import Testing

/// `NEARBY_PORTABLE_IO=1` turns off the glibc-only paths (`/proc/self/fd` for the copy of a
/// capture read from a pipe, `/proc/self/exe`), what the package does on musl and Darwin, and
/// the mapped window pcap records are lent from (`StreamWindow`, then plain). `decode` must
/// print the same bytes, and exit with the same status, in both modes.
@Suite struct PortableIOTests {
    static let portable = ["NEARBY_PORTABLE_IO": "1"]
    static let glibc = ["NEARBY_PORTABLE_IO": "0"]

    /// Every capture file in the repository (damaged ones and gaps included; sound files, which
    /// the switch does not touch, left out), and the field captures when they are there.
    static var sets: [[String]] {
        let captures = [".pcap", ".pcapng", ".btsnoop", ".txt", ".log"]
        let all = FileManager.default.enumerator(atPath: RepositoryPaths.root + "/Captures")?.compactMap {
            $0 as? String
        }
        let own = (all ?? []).filter { p in captures.contains { p.hasSuffix($0) } }.sorted()
        return [own.map { RepositoryPaths.root + "/Captures/" + $0 }]
            + (RepositoryPaths.sharedCaptures.map { [[$0]] } ?? [])
    }

    @Test(arguments: sets)
    func decodePrintsTheSameInBothModes(_ paths: [String]) throws {
        let plain = try CommandLineTool.run(["decode", "--jobs", "2"] + paths, environment: Self.glibc)
        let portable = try CommandLineTool.run(["decode", "--jobs", "2"] + paths, environment: Self.portable)
        #expect(!plain.stdoutLines.isEmpty)
        #expect(portable.status == plain.status)
        #expect(portable.stdout == plain.stdout)
        #expect(portable.stderr == plain.stderr)
    }

    @Test(arguments: ["Captures/damaged/flipped-length.pcap", "Captures/damaged/length-repeated-by-next-block.pcapng"])
    func aCaptureOnStandardInputReadsTheSameInBothModes(_ capture: String) throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/" + capture)))
        let plain = try CommandLineTool.run(["decode", "-"], input: bytes, environment: Self.glibc)
        let portable = try CommandLineTool.run(["decode", "-"], input: bytes, environment: Self.portable)
        let named = try CommandLineTool.run(["decode", RepositoryPaths.root + "/" + capture])
        #expect(!plain.stdoutLines.isEmpty)
        #expect(portable.status == plain.status)
        #expect(portable.stdout == plain.stdout)
        // Read from a pipe, the capture decodes as from its file (DAMAGE-1 holds on the copy),
        // but for the name it is shown under.
        let unnamed = { (lines: [String]) in
            lines.map { $0.replacingOccurrences(of: #""file":"[^"]*","#, with: "", options: .regularExpression) }
        }
        #expect(unnamed(plain.stdoutLines) == unnamed(named.stdoutLines))
    }

    /// Under NEARBY_PORTABLE_IO=1 the copy of a pipe and its segments have names in $TMPDIR
    /// while they are read: whatever the pipe holds (a capture, nothing, not a capture), the
    /// command leaves none behind.
    @Test func aCaptureOnStandardInputLeavesNothingInTheTemporaryFolder() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let capture = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Captures/synthetic/crowded/crowded.btsnoop"))
        )
        let environment = Self.portable.merging(["TMPDIR": dir.path]) { $1 }
        for (input, status) in [(capture, Int32(0)), ([], 1), (Array("not a capture\n".utf8), 1)] {
            for _ in 0..<5 {
                let r = try CommandLineTool.run(["decode", "-"], input: input, environment: environment)
                #expect(r.status == status, "\(r.stderr)")
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == [])
    }
}
