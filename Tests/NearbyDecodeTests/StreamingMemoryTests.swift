import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing

/// `decode` streams: decoding a 96 MiB capture raises its peak memory by less than 32 MiB
/// over decoding 1 MiB with the same binary.
/// The command runs as a child process so that its peak resident set can be read alone
/// (`CommandLineTool.runMeasuringPeakMemory`), whatever the tests in this process allocate.
@Suite struct StreamingMemoryTests {
    @Test(.enabled(if: Python.has(["os"]), "python3 measures the peak memory"))
    func decodingAFileLargerThanTheMemoryBudgetStaysWithinIt() throws {
        _ = try #require(CommandLineTool.executable, "the nearby-conformance executable is built beside the tests")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.file("large.btsnoop")
        // 96 MiB: blocks of a 8 KiB ACL record and an advertising report with two beacons.
        var block = BtsnoopWriter(datalink: .hciUART)
        let header = block.bytes.count
        let acl: [UInt8] = [0x02, 0x40, 0x20, 0xFC, 0x1F] + [UInt8](repeating: 0xA5, count: 0x1FFC)
        for i in 0..<64 {
            block.append(acl, flags: 0x01, timestampMicros: Int64(i))
            block.append(ReferenceVectors.twoReportEvent, flags: 0x03, timestampMicros: Int64(i))
        }
        let body = Data(block.bytes[header...])
        _ = FileManager.default.createFile(atPath: path, contents: Data(block.bytes[0..<header]))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        handle.seekToEndOfFile()
        var written = header
        var blocks = 0
        while written < 96 << 20 {
            handle.write(body)
            written += body.count
            blocks += 1
        }
        try handle.close()

        let small = dir.file("small.btsnoop")
        _ = FileManager.default.createFile(atPath: small, contents: Data(block.bytes))
        let baseline = try Self.decode(path: small)
        #expect(baseline.lines.count == 64 * 2 + 1)
        let large = try Self.decode(path: path)
        #expect(large.lines.count == blocks * 64 * 2 + 1)
        #expect(large.lines.last?.contains("\"read\":\(blocks * 128)") == true)
        // The growth over the same binary decoding 1 MiB: code and libraries are not the file's.
        let growth = large.peakMiB - baseline.peakMiB
        #expect(
            growth < 32,
            "peak resident memory grew by \(growth) MiB (\(baseline.peakMiB) → \(large.peakMiB)) on a 96 MiB capture")
    }

    /// Runs `decode --summary --beacons-only` on `path`: its output lines and peak memory.
    static func decode(path: String) throws -> (lines: [String], peakMiB: Double) {
        let (r, peak) = try CommandLineTool.runMeasuringPeakMemory(["decode", "--summary", "--beacons-only", path])
        #expect(r.status == 0, "\(r.stderr)")
        return (r.stdoutLines, peak)
    }
}
