import Foundation
import NearbyTestSupport
import Testing

/// The end of `replay --explain` (docs/scenario-format.md, "Explaining a replay"): the frames
/// that are no sighting, and what each subscription made of the sightings, against the ground
/// truth of the synthesized office walk (what the scanner heard of each device and frame).
@Suite struct ExplainSummaryTests {
    @Test func theSummaryCountsWhatTheGroundTruthHeard() throws {
        let walk = RepositoryPaths.root + "/Captures/synthetic/office-walk/"
        let truth =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: walk + "office-walk.truth.json"))) as! [String: Any]
        var heard: [String: Int] = [:]
        for device in truth["devices"] as! [[String: Any]] {
            for frame in device["frames"] as! [[String: Any]] {
                heard[frame["kind"] as! String, default: 0] += (frame["hci"] as! [String: Any])["count"] as! Int
            }
        }
        let r = try CommandLineTool.run([
            "replay", "--scenario", RepositoryPaths.root + "/Captures/synthetic/office-walk.scenario.json",
            "--capture", walk + "office-walk.btsnoop", "--explain",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data(r.stdoutLines.last!.utf8)) as? [String: Any])
        #expect(summary["kind"] as? String == "summary")
        // TLM frames name no beacon: counted beside the sightings, with why.
        let frames = summary["notSightings"] as! [String: [String: Any]]
        #expect(frames["eddystone-tlm"]?["count"] as? Int == heard["eddystone-tlm"])
        #expect(frames["eddystone-tlm"]?["reason"] as? String == "telemetry names no beacon")
        let sightings = heard["eddystone-uid", default: 0] + heard["ibeacon", default: 0]
        let bySubscription = Dictionary(
            uniqueKeysWithValues: (summary["subscriptions"] as! [[String: Any]]).map {
                ($0["subscription"] as! String, $0)
            })
        for (id, counted, other) in [
            ("raw-ibeacon", heard["ibeacon"]!, "__reserved_namespace/__eddystone_uid"),
            ("raw-uid", heard["eddystone-uid"]!, "__reserved_namespace/__i_beacon_id"),
        ] {
            let s = try #require(bySubscription[id])
            #expect(s["sightings"] as? Int == sightings, "\(id)")
            // ENGINE-R2, ENGINE-R3: each reserved subscription counts its own kind of beacon, and
            // its filter stops the other kind, which stands for the other reserved message.
            #expect(s["counted"] as? Int == counted, "\(id)")
            #expect((s["notCounted"] as? [String: Int])?["R3 filter-mismatch"] == sightings - counted, "\(id)")
            #expect((s["filteredOut"] as? [String: Int])?[other] == sightings - counted, "\(id)")
        }
        let table = try CommandLineTool.run([
            "replay", "--scenario", RepositoryPaths.root + "/Captures/synthetic/office-walk.scenario.json",
            "--capture", walk + "office-walk.btsnoop", "--explain", "--format", "table",
        ])
        #expect(
            table.stdoutLines.contains {
                $0.hasPrefix(
                    "summary: raw-ibeacon asks __reserved_namespace, type __i_beacon_id: \(sightings) sightings")
            })
        #expect(table.stdout.contains("(it stands for "))
    }
}
