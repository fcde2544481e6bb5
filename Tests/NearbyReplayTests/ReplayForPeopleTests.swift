import Foundation
import NearbyTestSupport
import Testing

/// What `replay` tells a person (docs/scenario-format.md, "Output of `replay`"): the time
/// origin above the table, decoding faults counted in one line with `--quiet`, and explain
/// lines that name each sighting once.
@Suite struct ReplayForPeopleTests {
    static let scenario = RepositoryPaths.root + "/Captures/synthetic/office-walk.scenario.json"
    static let capture = RepositoryPaths.root + "/Captures/synthetic/office-walk/office-walk.btsnoop"
    /// A hex-text capture whose first record holds a cut Eddystone-UID.
    static let damaged = RepositoryPaths.root + "/Captures/damaged/broken-frame-then-ibeacon.txt"

    // The scenario's timeOrigin is 1767225600 (2026-01-01T00:00:00Z).
    @Test func theTableStartsWithTheTimeOrigin() throws {
        let r = try CommandLineTool.run(
            ["replay", "--scenario", Self.scenario, "--capture", Self.capture, "--format", "table"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(
            r.stdoutLines.first
                == "time origin 2026-01-01T00:00:00.000000Z (Unix 1767225600.000000); times are seconds after it")
        let json = try CommandLineTool.run(["replay", "--scenario", Self.scenario, "--capture", Self.capture])
        #expect(json.stdoutLines.first?.hasPrefix("{\"event\":") == true, "JSON lines stay one event per line")
    }

    @Test func quietCountsTheFaultsInOneLineAndKeepsTheStatus() throws {
        let loud = try CommandLineTool.run(["replay", "--scenario", Self.scenario, "--capture", Self.damaged])
        let quiet = try CommandLineTool.run(
            ["replay", "--scenario", Self.scenario, "--capture", Self.damaged, "--quiet"])
        #expect(loud.stderr.contains("eddystone/truncated: UID instance"))
        #expect(!quiet.stderr.contains("eddystone/truncated: UID instance"))
        #expect(
            quiet.stderr.contains(
                "note: 1 decoding fault in the captures (eddystone/truncated 1); without --quiet each is printed"))
        #expect(quiet.status == loud.status)
        #expect(quiet.stdout == loud.stdout)
    }

    // An iBeacon sighting is named by its type once, a token by its medium.
    @Test func explainLinesNameEachSightingOnce() throws {
        let r = try CommandLineTool.run(
            ["replay", "--scenario", Self.scenario, "--capture", Self.capture, "--format", "table", "--explain"])
        #expect(r.status == 0)
        #expect(!r.stdout.contains("ibeacon ibeacon"))
        #expect(!r.stdout.contains("beacon eddystone-uid"))
        #expect(r.stdout.contains("sighting ibeacon e2c56db5dffb48d2b060d0f5a71096e000010002 rssi"))
    }
}

/// `replay --subscribe-all` against the synthesizer's ground truth: every Eddystone-UID and
/// iBeacon heard is found through its reserved message (ENGINE-R2) at the first sighting of
/// each run the truth gives, and lost a lost timeout after the run's last (ENGINE-F1,
/// ENGINE-F2).
@Suite struct SubscribeAllTests {
    @Test func everyBeaconRunIsFoundAndLostThroughItsReservedMessage() throws {
        let walk = RepositoryPaths.root + "/Captures/synthetic/office-walk/"
        let truth =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: walk + "office-walk.truth.json"))) as! [String: Any]
        let lostTimeout = truth["lostTimeoutSeconds"] as! Double
        var expected: [String] = []
        for device in truth["devices"] as! [[String: Any]] {
            for frame in device["frames"] as! [[String: Any]] {
                let kind = frame["kind"] as! String
                let ad = ReferenceVectors.bytes(frame["adData"] as! String)
                // The identity: a UID's namespace and instance (the 16 bytes after the Tx
                // power), an iBeacon's UUID, major and minor (20 bytes after `02 15`).
                let identity: ArraySlice<UInt8>
                switch kind {
                case "eddystone-uid": identity = ad[13..<29]
                case "ibeacon": identity = ad[9..<29]
                default: continue
                }
                let content = Data(identity).base64EncodedString()
                let sub = "subscribe-all/" + kind
                for run in (frame["hci"] as! [String: Any])["runs"] as! [[String: Any]] {
                    let first = run["first"] as! Double, last = run["last"] as! Double
                    expected.append(String(format: "%.6f found %@ %@", first, sub, content))
                    expected.append(String(format: "%.6f lost %@ %@", last + lostTimeout, sub, content))
                }
            }
        }
        let r = try CommandLineTool.run([
            "replay", "--scenario", RepositoryPaths.root + "/Captures/synthetic/office-walk.scenario.json",
            "--capture", walk + "office-walk.btsnoop", "--subscribe-all",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        var got: [String] = []
        for line in r.stdoutLines {
            let o = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            guard let sub = o["subscription"] as? String, sub.hasPrefix("subscribe-all/"),
                sub != "subscribe-all/project",
                let message = o["message"] as? [String: Any]
            else { continue }
            got.append(
                String(
                    format: "%.6f %@ %@ %@", o["time"] as! Double, o["event"] as! String, sub,
                    message["content"] as! String))
        }
        #expect(!expected.isEmpty)
        #expect(got.sorted() == expected.sorted())
    }
}
