import Dispatch
import Foundation
import NearbyMessages
import NearbyTestSupport
import Synchronization
import Testing

@testable import NearbyReplay

/// `replay --reorder-window`: one capture replayed as it is read (ENGINE-O1B), each callback
/// written while the capture is still arriving.
@Suite struct ReplayAsReadTests {
    /// The callbacks come on a pipe while the capture is still being written into a FIFO: the
    /// first is read before the rest of the capture is written, and the whole output is the
    /// hand-written events of `ReplayTests`.
    @Test func theFirstCallbackIsWrittenBeforeTheCaptureHasEnded() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let whole = try [UInt8](Data(contentsOf: URL(fileURLWithPath: ReplayTests.writeCapture(dir))))
        // The file header and the records at 0 and 1 s: enough for the sighting at 0 s.
        let firstPart = try Data(
            contentsOf: URL(fileURLWithPath: ReplayTests.write(Array(ReplayTests.timeline()[0..<2]), "part", dir))
        ).count
        let fifo = dir.file("capture")
        try #require(mkfifo(fifo, 0o600) == 0)
        let scenario = dir.write(Array(ReplayTests.scenario().utf8), to: "s.json")

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(CommandLineTool.executable))
        process.arguments = ["replay", "--scenario", scenario, "--capture", fifo, "--reorder-window", "0"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        let read = Mutex<[UInt8]>([])
        let firstLine = DispatchSemaphore(value: 0)
        let readerDone = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            defer { readerDone.signal() }
            var signalled = false
            while true {
                let data = output.fileHandleForReading.availableData
                if data.isEmpty { break }
                let hasLine = read.withLock {
                    $0 += data
                    return $0.contains(0x0A)
                }
                if hasLine && !signalled {
                    signalled = true
                    firstLine.signal()
                }
            }
            if !signalled { firstLine.signal() }
        }

        let capture = try #require(FileHandle(forWritingAtPath: fifo))
        capture.write(Data(whole[..<firstPart]))
        let cameEarly = firstLine.wait(timeout: .now() + 60) == .success && !read.withLock { $0.isEmpty }
        #expect(cameEarly, "no callback before the rest of the capture was written")
        capture.write(Data(whole[firstPart...]))
        try capture.close()
        process.waitUntilExit()
        readerDone.wait()
        #expect(process.terminationStatus == 0)
        let lines = String(decoding: read.withLock { $0 }, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == ReplayTests.expectedEvents)
    }

    /// The beacon's advertisement at 1.5 s written after the one at 4 s: with a window of 3 s
    /// it is still waiting to be fed and takes its place (the hand-written events); with 1 s
    /// the sightings up to 3 s have been fed and it is late: not replayed (no door found),
    /// said on standard error, exit status 2.
    @Test func anAdvertisementLaterThanTheWindowIsCountedAndNotReplayed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        var entries = ReplayTests.timeline()
        let beacon = entries.remove(at: 2)
        #expect(beacon.0 == 1.5)
        entries.append(beacon)
        let capture = ReplayTests.write(entries, "late.btsnoop", dir)
        let scenario = dir.write(Array(ReplayTests.scenario().utf8), to: "s.json")

        let wide = try CommandLineTool.run([
            "replay", "--scenario", scenario, "--capture", capture, "--reorder-window", "3",
        ])
        #expect(wide.status == 0, "\(wide.stderr)")
        #expect(wide.stdoutLines == ReplayTests.expectedEvents)

        let narrow = try CommandLineTool.run([
            "replay", "--scenario", scenario, "--capture", capture, "--reorder-window", "1",
        ])
        #expect(narrow.status == 2)
        #expect(narrow.stdoutLines == [ReplayTests.expectedEvents[0], ReplayTests.expectedEvents[3]])
        #expect(
            narrow.stderr.contains(
                "warning: 1 advertisement came more than the reorder window (1.000000 s) after later ones and was "
                    + "not replayed, the first record 7"),
            "\(narrow.stderr)")
    }

    /// Every synthesized scenario over each of its captures: replayed as read with a window of
    /// 0, the events of the replay that sorts the whole capture first (the captures are in
    /// time order).
    @Test func aCaptureInTimeOrderGivesTheEventsOfTheWholeReplay() throws {
        let root = RepositoryPaths.root + "/Captures/synthetic/"
        let scenarios = try FileManager.default.contentsOfDirectory(atPath: root)
            .filter { $0.hasSuffix(".scenario.json") }.sorted()
        #expect(scenarios.count >= 10)
        var compared = 0
        for name in scenarios {
            let scenario = try Scenario.load(root + name)
            let folder = root + name.dropLast(".scenario.json".count) + "/"
            let captures = try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.hasSuffix(".btsnoop") || $0.hasSuffix(".pcap") }.sorted()
            for capture in captures {
                let whole = try ReplaySession().run(scenario: scenario, captures: [folder + capture]).result
                var events: [EngineEvent] = []
                let asRead = try ReplaySession().run(
                    scenario: scenario, capture: folder + capture, reorderWindowMicros: 0, onIssue: { _ in },
                    onEvents: { origin, batch in
                        #expect(origin == whole.originUnixMicros)
                        events += batch
                    })
                #expect(asRead.lateAdvertisements == 0, "\(capture)")
                #expect(asRead.originUnixMicros == whole.originUnixMicros, "\(capture)")
                #expect(asRead.captureSightings == whole.captureSightings, "\(capture)")
                #expect(events == whole.events, "\(capture)")
                compared += 1
            }
        }
        #expect(compared >= 30)
    }
}
