import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `decode` streams: its peak memory stays under 64 MB on a capture larger than that.
/// The command runs as a child process so that its peak resident set can be read alone
/// (`getrusage(RUSAGE_CHILDREN)`), whatever the tests in this process allocate.
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

        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["decode", "--summary", "--beacons-only", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lastLine = ""
        var lineCount = 0
        var pending = Data()
        while true {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            pending.append(chunk)
            while let nl = pending.firstIndex(of: 0x0A) {
                lastLine = String(decoding: pending[pending.startIndex..<nl], as: UTF8.self)
                lineCount += 1
                pending.removeSubrange(pending.startIndex...nl)
            }
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(lineCount == blocks * 64 * 2 + 1)
        #expect(lastLine.contains("\"read\":\(blocks * 128)"))
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        let peakMiB = Double(usage.ru_maxrss) / 1024
        #expect(peakMiB < 64, "peak resident memory \(peakMiB) MiB decoding a 96 MiB capture")
    }
}
