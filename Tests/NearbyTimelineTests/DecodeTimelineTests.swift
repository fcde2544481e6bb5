import Foundation
import NearbyTestSupport
import Testing

/// `decode --html`, read back without a browser and checked against `decode`'s own JSON lines
/// for the same files: one lane per beacon identity (docs/timeline.md gives the labels) whose
/// ticks count that identity's advertisements, and a lane of every advertisement with AD data.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct DecodeTimelineTests {
    /// The lane label docs/timeline.md gives a beacon of `decode`'s JSON output.
    static func label(_ beacon: [String: Any], address: String) -> String {
        let type = beacon["type"] as? String ?? ""
        let s = { (key: String) in "\(beacon[key] ?? "")" }
        return switch type {
        case "eddystone-uid": "eddystone-uid \(s("namespace")) \(s("instance"))"
        case "eddystone-eid": "eddystone-eid \(s("eid"))"
        case "eddystone-url": "eddystone-url \(s("url"))"
        case "ibeacon": "ibeacon \(s("uuid")) \(s("major")) \(s("minor"))"
        case "altbeacon": "altbeacon \(s("beaconId"))"
        case "token-v1": "token-v1 \(s("token"))"
        default: "\(type) from \(address)"
        }
    }

    @Test(arguments: [
        "Captures/synthetic/office-walk/office-walk.btsnoop", "Captures/synthetic/crowded",
        "Captures/bumble",
    ])
    func drawsOneLanePerBeaconIdentityCountingItsAdvertisements(_ path: String) throws {
        let full = RepositoryPaths.root + "/" + path
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let run = try CommandLineTool.run(["decode", "--html", dir.file("d.html"), full])
        let plain = try CommandLineTool.run(["decode", full])
        #expect(run.stdout == plain.stdout)
        #expect(run.status == plain.status)
        var expected: [String: Int] = [:]
        var advertisements = 0
        for line in plain.stdoutLines {
            let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
            guard object["time"] is NSNumber else { continue }
            advertisements += 1
            for beacon in object["beacons"] as? [[String: Any]] ?? [] {
                expected[Self.label(beacon, address: object["address"] as? String ?? ""), default: 0] += 1
            }
        }
        let doc = TimelineDocument(try String(contentsOfFile: dir.file("d.html"), encoding: .utf8))
        #expect(doc.wellFormed)
        #expect(doc.externalReferences.isEmpty)
        var drawn: [String: Int] = [:]
        for mark in doc.marks("tick", "seen") where mark.group.hasPrefix("Beacons") {
            drawn[mark.lane, default: 0] += mark.count
        }
        let want = Dictionary(uniqueKeysWithValues: expected.map { ("\($0.key) (\($0.value))", $0.value) })
        #expect(drawn == want)
        let all = doc.marks("tick", "seen", lane: "all advertisements").reduce(0) { $0 + $1.count }
        #expect(all == advertisements)
        #expect(advertisements > 0)
    }
}
