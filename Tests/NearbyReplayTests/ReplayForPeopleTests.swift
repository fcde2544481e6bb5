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
