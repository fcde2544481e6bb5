import Dispatch
import Foundation
import NearbyTestSupport
import Synchronization
import Testing

@testable import NearbyCapture

/// RECORDS-11: a capture read from a pipe gives the steps the file gives, and its records
/// come as the pipe brings them.
@Suite struct PipeReaderTests {
    /// Writes `bytes` into the FIFO at `path` on a thread of its own, in pieces of 1 to 4,096
    /// bytes (a fixed pseudo-random sequence), pausing now and then so that the reader finds
    /// the pipe empty; `pause(at:)` may hold it before a piece.
    final class Feeder: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)

        init(
            _ bytes: [UInt8], into path: String, pauseEachPiece: Bool = false, hold: (@Sendable (Int) -> Void)? = nil
        ) {
            DispatchQueue.global().async { [done] in
                defer { done.signal() }
                guard let handle = FileHandle(forWritingAtPath: path) else { return }
                var state: UInt64 = 0x9E37_79B9_7F4A_7C15
                var at = 0
                while at < bytes.count {
                    hold?(at)
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let n = min(bytes.count - at, Int(state >> 33) % 4_096 + 1)
                    handle.write(Data(bytes[at..<at + n]))
                    at += n
                    if pauseEachPiece || state >> 60 == 0 { usleep(500) }
                }
                try? handle.close()
            }
        }
    }

    func fifo(in dir: TemporaryDirectory) throws -> String {
        let path = dir.file("capture-pipe")
        try #require(mkfifo(path, 0o600) == 0)
        return path
    }

    /// Every capture under Captures/, damaged ones too, read from a pipe fed in pieces (every
    /// other file one record at a time, the others in runs): the same steps, numbers and
    /// offsets as the file.
    @Test func everyCaptureReadFromAPipeGivesTheStepsOfTheFile() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let files = ReaderDigestTests.files
        #expect(files.count >= 60)
        for (n, file) in files.enumerated() {
            let path = RepositoryPaths.root + "/Captures/" + file
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let pipe = try fifo(in: dir)
            defer { unlink(pipe) }
            let feeder = Feeder(bytes, into: pipe)
            let piped = ReaderDigestTests.steps(pipe, inRuns: n % 2 == 0)
            feeder.done.wait()
            let want = ReaderDigestTests.steps(path, inRuns: false)
            if piped != want {
                let i = piped.indices.first { $0 >= want.count || piped[$0] != want[$0] } ?? piped.count
                let got = i < piped.count ? piped[i] : "none", expected = i < want.count ? want[i] : "none"
                Issue.record(
                    "\(file): \(piped.count) steps for \(want.count); the first to differ, \(i + 1):\n\(got)\n\(expected)"
                )
            }
        }
    }

    /// The first records are lent while the rest of the capture is still to come: the feeder
    /// holds the second half back until the reader has lent a record (or 30 s have passed),
    /// and the records read in all are the file's.
    @Test(arguments: ["crowded.btsnoop", "crowded-201.pcap"])
    func recordsAreLentBeforeThePipeEnds(_ name: String) throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = RepositoryPaths.root + "/Captures/synthetic/crowded/" + name
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pipe = try fifo(in: dir)
        let lent = DispatchSemaphore(value: 0)
        let held = Mutex(false)
        let feeder = Feeder(bytes, into: pipe) { at in
            guard at >= bytes.count / 2, !held.withLock({ $0 }) else { return }
            held.withLock { $0 = true }
            _ = lent.wait(timeout: .now() + 30)
        }
        let reader = try CaptureFile.open(pipe)
        var indices: [Int] = []
        let step = reader.read {
            indices.append($0.metadata.index)
            return false
        }
        // Whether the feeder had written everything when the first record came.
        let written = feeder.done.wait(timeout: .now()) == .success
        lent.signal()
        #expect(!written, "the first record came only once the whole capture was written")
        guard case .record = step else {
            Issue.record("no record: \(step)")
            return
        }
        while true {
            let step = reader.read {
                indices.append($0.metadata.index)
                return true
            }
            if case .end = step { break }
        }
        if written { feeder.done.signal() }
        feeder.done.wait()
        let records = ReaderDigestTests.steps(path, inRuns: true).filter { $0.hasPrefix("R ") }.count
        #expect(indices == Array(1...records))
    }

    /// A pipe faster than its reader: while the reader waits, at most `segmentsAhead` segments
    /// (files held open) wait for it, and the writer waits in turn; then every record comes.
    @Test func aReaderThatWaitsHoldsABoundedNumberOfSegments() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = RepositoryPaths.root + "/Captures/synthetic/crowded/crowded-256.pcap"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let pipe = try fifo(in: dir)
        // A pause after every piece: the copier finds the pipe empty and cuts a segment each time.
        let feeder = Feeder(bytes, into: pipe, pauseEachPiece: true)
        let reader = try #require(try CaptureFile.open(pipe) as? PipeReader)
        Thread.sleep(forTimeInterval: 2)
        #expect(reader.segmentsWaiting <= PipeInput.segmentsAhead)
        let written = feeder.done.wait(timeout: .now()) == .success
        #expect(!written, "the writer was never held back")
        if written { feeder.done.signal() }
        var records = 0
        while true {
            let step = reader.read { _ in
                records += 1
                return true
            }
            if case .end = step { break }
        }
        feeder.done.wait()
        #expect(records == ReaderDigestTests.steps(path, inRuns: true).filter { $0.hasPrefix("R ") }.count)
    }
}
