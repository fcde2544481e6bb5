import Dispatch
import Foundation
import NearbyTestSupport
import Synchronization
import Testing

@testable import NearbyDecode
@testable import NearbyDecodeSession

/// `decode --jobs N`: files decoded at once, output and diagnostics in the order and with the
/// bytes of one job (issue 27).
@Suite struct DecodeJobsTests {
    struct Run: Equatable {
        var outcome: DecodeSession.Outcome
        var output: [UInt8]
        var diagnostics: [String]
    }

    static func run(_ paths: [String], jobs: Int, summary: Bool, format: DecodeSession.OutputFormat) -> Run {
        var session = DecodeSession(summary: summary, format: format)
        session.jobs = jobs
        var output: [UInt8] = []
        var diagnostics: [String] = []
        let outcome = session.run(
            paths: paths, write: { output.append(contentsOf: $0) }, diagnostics: { diagnostics.append($0) },
            chunkSize: 512)
        return Run(outcome: outcome, output: output, diagnostics: diagnostics)
    }

    @Test(arguments: [DecodeSession.OutputFormat.json, .table])
    func severalJobsWriteWhatOneJobWrites(format: DecodeSession.OutputFormat) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let names = try FixtureCaptures.write(to: dir.path)
        // A capture cut in the middle of a record (decoded in part) and a file that is no
        // capture, among the others, and a named file that does not exist.
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir.file(FixtureCaptures.hciFileNames[0])))
        _ = dir.write(Array(whole.prefix(whole.count - 3)), to: "cut.pcap")
        _ = dir.write(Array("not a capture".utf8), to: "notes.txt")
        let paths = [dir.path, dir.file("missing.pcap")]
        let one = Self.run(paths, jobs: 1, summary: true, format: format)
        #expect(one.outcome == .fileUnreadable, "a named file that does not exist")
        #expect(one.diagnostics.contains { $0.hasPrefix("warning: \(dir.file("cut.pcap"))") })
        #expect(one.diagnostics.contains { $0.hasPrefix("skipped: ") && $0.contains("notes.txt") })
        #expect(one.output.count > 10_000, "\(names.count) captures' lines")
        for jobs in [2, 3, 8] {
            #expect(Self.run(paths, jobs: jobs, summary: true, format: format) == one, "--jobs \(jobs)")
        }
    }

    /// Lines and diagnostics the test writes to a spool, in order, and the text expected from
    /// `drain`: each diagnostic as `<text>` after the lines before it.
    static func feed(_ spool: OutputSpool, lines: Int) -> String {
        var expected = ""
        for i in 0..<lines {
            let line = "line \(i)\n"
            expected += line
            Array(line.utf8).withUnsafeBufferPointer { spool.write($0) }
            if i % 7 == 0 {
                spool.say("after \(i)")
                expected += "<after \(i)>"
            }
        }
        spool.finish()
        return expected
    }

    static func drain(_ spool: OutputSpool) -> String {
        var drained = ""
        spool.drain(
            write: { drained += String(decoding: $0, as: UTF8.self) }, diagnostics: { drained += "<\($0)>" })
        return drained
    }

    @Test func aSpoolFilledPastItsMemoryLimitGivesBackEveryByteAndEachDiagnosticInPlace() {
        let spool = OutputSpool(memoryLimit: 10)
        let expected = Self.feed(spool, lines: 50)
        #expect(Self.drain(spool) == expected)
    }

    @Test func aSpoolDrainedWhileItIsWrittenPassesEverythingThroughInOrder() {
        let spool = OutputSpool(memoryLimit: 10)
        let expected = Mutex("")
        let worker = DispatchGroup()
        DispatchQueue.global().async(group: worker) {
            let text = Self.feed(spool, lines: 5_000)
            expected.withLock { $0 = text }
        }
        let drained = Self.drain(spool)
        worker.wait()
        #expect(drained == expected.withLock { $0 })
        #expect(drained.hasSuffix("line 4999\n"))
    }
}
