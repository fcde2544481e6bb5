import Foundation
import NearbyCapture
import NearbyTestSupport
import Testing

/// `decode --live` and `replay --live` against Bumble's virtual controllers over TCP on
/// 127.0.0.1: one scans (driven by the tool), the other advertises from
/// Scripts/bumble-advertise.py, whose printed intervals are the ground truth. Every run is
/// bounded by --duration and killed past a deadline; the controllers are stopped after.
@Suite(
    .serialized,
    .enabled(if: Bumble.available && CommandLineTool.executable != nil, "needs python3 with bumble and the executable"))
struct LiveDecodeCommandTests {
    static let frames = ["eddystone-uid", "ibeacon", "token-v1"]
    /// The beacon type and address each frame kind shows in `decode` (Scripts/bumble_frames.py).
    static let expected = [
        "eddystone-uid": ("eddystone-uid", "c4:7d:00:00:0b:01"), "ibeacon": ("ibeacon", "c4:7d:00:00:0b:03"),
        "token-v1": ("token-v1", "c4:7d:00:00:0b:05"),
    ]

    static func objects(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func beaconType(_ line: [String: Any]) -> String? {
        ((line["beacons"] as? [[String: Any]])?.first)?["type"] as? String
    }

    @Test func decodeLivePrintsEachAdvertisedBeaconAndTheWrittenCaptureDecodesTheSame() throws {
        let controllers = try Bumble.Controllers()
        defer { controllers.stop() }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let written = dir.file("live.pcapng")
        let run = try CommandLineTool.start([
            "decode", "--live", controllers.scanner, "--duration", "6", "--write", written,
        ])
        #expect(run.waitForStandardError(containing: "Ctrl-C stops", timeout: 20))
        let truth = try Bumble.advertise(port: controllers.advertiserPort, frames: Self.frames, seconds: 1.2)
        let result = try run.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("extended passive scanning"))
        let lines = Self.objects(result.stdoutLines)
        #expect(truth.count == Self.frames.count)
        for interval in truth {
            let (type, address) = Self.expected[interval.kind]!
            let seen = lines.filter { Self.beaconType($0) == type }
            #expect(!seen.isEmpty, "no \(type) decoded")
            for line in seen {
                #expect(line["address"] as? String == address)
                // Stamped by the host's clock while the frame was on the air (the report
                // travels over the loopback within milliseconds).
                let time = line["time"] as? Double ?? 0
                #expect(time >= interval.start - 0.05 && time <= interval.stop + 0.5, "\(type) at \(time)")
            }
        }
        let again = try CommandLineTool.run(["decode", written])
        #expect(again.status == 0)
        func withoutFile(_ lines: [String]) -> [String] {
            lines.map { $0.replacingOccurrences(of: #""file":"[^"]*","#, with: "", options: .regularExpression) }
        }
        #expect(withoutFile(again.stdoutLines) == withoutFile(result.stdoutLines))
        #expect(!again.stdoutLines.isEmpty)
    }

    @Test func replayLiveFiresFoundAndLostOnTheHostClockAndTheCaptureReplaysToTheSame() throws {
        let controllers = try Bumble.Controllers()
        defer { controllers.stop() }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // The scenario of Vectors/bumble with a lost timeout of 3 s (Bumble advertises about
        // once a second): a subscription per beacon kind, and "chat" for the token's publication.
        let vectors = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: RepositoryPaths.root + "/Vectors/bumble/bumble.json")))
        var scenario = (((vectors as! [String: Any])["vectors"] as! [[String: Any]])[0]["scenario"] as! [String: Any])
        scenario["lostTimeoutSeconds"] = 3
        let scenarioPath = dir.file("scenario.json")
        try JSONSerialization.data(withJSONObject: scenario).write(to: URL(fileURLWithPath: scenarioPath))
        let written = dir.file("live.btsnoop")
        let run = try CommandLineTool.start([
            "replay", "--live", controllers.scanner, "--scenario", scenarioPath, "--duration", "8",
            "--write", written,
        ])
        #expect(run.waitForStandardError(containing: "Ctrl-C stops", timeout: 20))
        let truth = try Bumble.advertise(port: controllers.advertiserPort, frames: Self.frames, seconds: 1.2)
        let result = try run.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        // The command that replays the written capture, with the session's origin and end.
        let hint = try #require(result.stderr.split(separator: "\n").first { $0.contains("--time-origin") })
        let words = hint.split(separator: " ").map(String.init)
        let origin = try #require(Double(words[words.firstIndex(of: "--time-origin")! + 1]))
        let end = words[words.firstIndex(of: "--end")! + 1]
        let events = Self.objects(result.stdoutLines)
        let subscriptions = ["eddystone-uid": "raw-uid", "ibeacon": "raw-ibeacon", "token-v1": "chat"]
        for interval in truth {
            let subscription = subscriptions[interval.kind]!
            let mine = events.filter { $0["subscription"] as? String == subscription }
            #expect(mine.map { $0["event"] as? String } == ["found", "lost"], "\(subscription): \(mine)")
            guard mine.count == 2, let found = mine[0]["time"] as? Double, let lost = mine[1]["time"] as? Double
            else { continue }
            // Found while the frame was on the air; lost 3 s (the scenario's timeout) after
            // its last sighting, which was on the air too.
            #expect(found >= interval.start - origin - 0.05 && found <= interval.stop - origin + 0.5)
            #expect(lost >= found + 3 && lost <= interval.stop - origin + 3.5)
        }
        let offline = try CommandLineTool.run([
            "replay", "--scenario", scenarioPath, "--capture", written, "--time-origin",
            words[
                words.firstIndex(
                    of:
                        "--time-origin")! + 1], "--end", end,
        ])
        #expect(offline.status == 0)
        #expect(offline.stdout == result.stdout)
    }

    @Test func countStopsAfterThatManyRecordsReceivedWhileScanning() throws {
        let controllers = try Bumble.Controllers()
        defer { controllers.stop() }
        let run = try CommandLineTool.start(["decode", "--live", controllers.scanner, "-c", "2", "--duration", "20"])
        #expect(run.waitForStandardError(containing: "Ctrl-C stops", timeout: 20))
        _ = try Bumble.advertise(port: controllers.advertiserPort, frames: ["ibeacon"], seconds: 2.5)
        let result = try run.finish(timeout: 30)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("(2 received while scanning)"))
        // Each received record is one report of one advertisement (Bumble reports one per event).
        #expect(result.stdoutLines.count == 2)
    }

    @Test func ctrlCStopsScanningAndKeepsTheCaptureWhole() throws {
        let controllers = try Bumble.Controllers()
        defer { controllers.stop() }
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let written = dir.file("live.pcap")
        let run = try CommandLineTool.start(["decode", "--live", controllers.scanner, "--write", written, "--summary"])
        #expect(run.waitForStandardError(containing: "Ctrl-C stops", timeout: 20))
        run.send(SIGINT)
        let result = try run.finish(timeout: 20)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stopped by signal 2"))
        // The capture ends with the scan disable command and its Command Complete (Core Vol 4
        // Part E §7.8.65: LE Set Extended Scan Enable, opcode 0x2042), direction 0 then 1.
        let text = try CommandLineTool.run(["decode", "--summary", written])
        #expect(text.status == 0)
        let file = try CaptureFile.open(written)
        var records: [[UInt8]] = []
        while case .record(let r) = file.next() { records.append(Array(r.bytes)) }
        #expect(
            records.suffix(2) == [
                [0, 0, 0, 0, 0x01, 0x42, 0x20, 0x06, 0, 0, 0, 0, 0, 0],
                [0, 0, 0, 1, 0x04, 0x0E, 0x04, 0x01, 0x42, 0x20, 0x00],
            ])
    }
}
