import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing

/// A controller that fails: answers a command with an error, closes the connection, sends
/// bytes that are not H4 (Tests/Fixtures/fake-controller.py, written from the Core
/// specification). The tool says what happened, exits 1, and keeps what it received.
@Suite(
    .serialized,
    .enabled(if: Python.has(["socket"]) && CommandLineTool.executable != nil, "needs python3 and the executable"))
struct LiveFailureTests {
    /// Starts the fake controller in `mode`, runs `decode --live` against it with `--write`,
    /// and gives the tool's result, the fixture's account of what it sent, and the records
    /// of the written capture.
    func run(_ mode: String) throws -> (CommandLineTool.Result, [String: Int], CaptureFileRecords) {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let fixture = Process()
        fixture.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        fixture.arguments = ["python3", RepositoryPaths.root + "/Tests/Fixtures/fake-controller.py", mode]
        let pipe = Pipe()
        fixture.standardOutput = pipe
        try fixture.run()
        defer { if fixture.isRunning { kill(fixture.processIdentifier, SIGKILL) } }
        var output = Data()
        while !output.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            output += chunk
        }
        let port = try #require(Int(String(decoding: output, as: UTF8.self).split(separator: "\n")[0]))
        let written = dir.file("kept.pcapng")
        let result = try CommandLineTool.start([
            "decode", "--live", "tcp-client:127.0.0.1:\(port)", "--duration", "5", "--write", written, "--summary",
        ]).finish(timeout: 20)
        output += pipe.fileHandleForReading.readDataToEndOfFile()
        fixture.waitUntilExit()
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        let sent = try JSONSerialization.jsonObject(with: Data(lines.last!.utf8)) as? [String: Int] ?? [:]
        return (result, sent, try CaptureFileRecords(written))
    }

    /// The records of a capture file, read back.
    struct CaptureFileRecords {
        var records: [CaptureRecord] = []
        init(_ path: String) throws {
            let reader = try CaptureFile.open(path)
            while case .record(let r) = reader.next() { records.append(r) }
        }
        /// Records the controller sent (direction 1).
        var received: Int { records.filter { $0.bytes[3] == 1 }.count }
    }

    @Test func aCommandAnsweredWithAnErrorIsNamedWithItsStatus() throws {
        let (result, sent, kept) = try run("command-error")
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "the controller answered LE Set Scan Parameters (0x200b) with status 0x12 "
                    + "(Invalid HCI Command Parameters)"
            ))
        // Reset, LE features, event mask, LE event mask, scan parameters: each command and its answer.
        #expect(kept.records.count == 10 && kept.received == sent["packets"])
    }

    @Test func aControllerThatHangsUpKeepsTheAdvertisementsBefore() throws {
        let (result, sent, kept) = try run("disconnect")
        #expect(result.status == 1)
        #expect(result.stderr.contains("the controller closed the connection"))
        #expect(result.stdoutLines.filter { $0.contains(#""type":"ibeacon""#) }.count == 3)
        #expect(kept.received == sent["packets"])
    }

    /// H4-10: bytes that are not H4 end the stream as one malformed record at their offset.
    @Test func bytesThatAreNotH4AreAMalformedRecordAtTheirStreamOffset() throws {
        let (result, sent, kept) = try run("garbage")
        #expect(result.status == 1)
        let offset = try #require(sent["bytesBeforeGarbage"])
        #expect(result.stderr.contains("0x5a at byte \(offset) of the stream"))
        #expect(result.stdoutLines.filter { $0.contains(#""type":"ibeacon""#) }.count == 2)
        // read = decoded + ignored + malformed, the garbage one malformed record.
        let summary = try #require(result.stdoutLines.last)
        #expect(summary.contains(#""malformed":{"h4/invalid-value":1}"#))
        #expect(summary.contains(#""records":{"decoded":2,"ignored":12,"malformed":1,"read":15}"#))
        #expect(kept.received == sent["packets"])
    }

    @Test func aControllerThatNeverAnswersTimesOut() throws {
        let (result, _, kept) = try run("silent")
        #expect(result.status == 1)
        #expect(result.stderr.contains("the controller did not answer Reset (0x0c03) within 3000 ms"))
        #expect(kept.records.count == 1)
    }

    @Test func linuxSocketsSayWhyTheyCannotOpen() throws {
        for source in ["hci-monitor", "hci-user:0"] {
            let result = try CommandLineTool.start(["decode", "--live", source, "--duration", "0.5"]).finish(
                timeout: 20)
            if result.status != 0 {
                #expect(result.status == 1)
                let reasons = [
                    "no Bluetooth sockets", "needs CAP_NET", "in use by the kernel", "there is no controller",
                ]
                #expect(result.stderr.contains("error: \(source): ") && reasons.contains { result.stderr.contains($0) })
            } else {
                #expect(result.stderr.contains("live: \(source)"))
            }
        }
    }
}
