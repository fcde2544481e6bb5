import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `decode` streams: decoding a 96 MiB capture raises its peak memory by less than 32 MiB
/// over decoding 1 MiB with the same binary.
/// The command runs as a child process so that its peak resident set can be read alone
/// (`wait4`'s rusage of that child), whatever the tests in this process allocate.
@Suite struct StreamingMemoryTests {
    @Test func decodingAFileLargerThanTheMemoryBudgetStaysWithinIt() throws {
        let binary = try #require(CommandLineTool.executable, "the nearby-conformance executable is built beside the tests")
        let dir = TemporaryDirectory(); defer { dir.remove() }
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
        let baseline = try Self.decode(binary: binary, path: small, output: dir.file("small.out"))
        #expect(baseline.lines.count == 64 * 2 + 1)
        let large = try Self.decode(binary: binary, path: path, output: dir.file("large.out"))
        #expect(large.lines.count == blocks * 64 * 2 + 1)
        #expect(large.lines.last?.contains("\"read\":\(blocks * 128)") == true)
        // The growth over the same binary decoding 1 MiB: code and libraries are not the file's.
        let growth = large.peakMiB - baseline.peakMiB
        #expect(growth < 32, "peak resident memory grew by \(growth) MiB (\(baseline.peakMiB) → \(large.peakMiB)) on a 96 MiB capture")
    }

    /// Runs `decode --summary --beacons-only` on `path` with posix_spawn and wait4, which
    /// gives this child's own peak resident set (RUSAGE_CHILDREN would give the largest of
    /// every child the test process ever waited for, Python ones included).
    static func decode(binary: String, path: String, output: String) throws -> (lines: [Substring], peakMiB: Double) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = [binary, "decode", "--summary", "--beacons-only", path]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        #expect(posix_spawn(&pid, binary, &actions, nil, &argv, environ) == 0)
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        #expect(status == 0)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        return (lines, Double(usage.ru_maxrss) / 1024)
    }
}
