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

    /// Captures from November 2023, January 2026 and November 2026.
    static let yearsApart = [
        "Captures/systematic/pcapng-be-four-interfaces.pcapng", "Captures/synthetic/crowded/crowded-256.pcap",
        "Captures/bumble/bumble-extended.btsnoop",
    ].map { RepositoryPaths.root + "/" + $0 }

    /// docs/timeline.md: gaps longer than a minute and a tenth of the time with advertisements
    /// are collapsed, so three captures months apart are three stretches on the axis, each
    /// holding every advertisement of its capture (`decode`'s times) and each at least a
    /// fifth of an equal share of the plot wide.
    @Test func collapsesTheGapsBetweenCapturesMonthsApart() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        #expect(try CommandLineTool.run(["decode", "--html", dir.file("d.html")] + Self.yearsApart).status == 0)
        let html = try String(contentsOfFile: dir.file("d.html"), encoding: .utf8)
        let json = try #require(html.firstMatch(of: /id="timeline-axis">(.*?)<\/script>/)?.1)
        let axis = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let segments = try #require(axis["segments"] as? [[String: Any]]).map {
            $0.compactMapValues { ($0 as? NSNumber)?.doubleValue }
        }
        #expect(segments.count == 3)
        var ranges: [(first: Double, last: Double)] = []
        for file in Self.yearsApart {
            let times = try CommandLineTool.run(["decode", file]).stdoutLines.compactMap { line -> Double? in
                guard line.contains(#""data":""#), !line.contains(#""data":"""#) else { return nil }
                return line.firstMatch(of: /"time":([0-9.]+)/).flatMap { Double($0.1) }
            }
            ranges.append((try #require(times.min()), try #require(times.max())))
        }
        // Seconds on the axis count from the earliest advertisement of all.
        let origin = ranges.map(\.first).min()!
        for (range, segment) in zip(ranges.sorted { $0.first < $1.first }, segments.sorted { $0["s0"]! < $1["s0"]! }) {
            #expect(
                range.first - origin >= segment["s0"]! - 1e-6 && range.last - origin <= segment["s1"]! + 1e-6,
                "\(range) in \(segment)")
            #expect(segment["x1"]! - segment["x0"]! >= (1200 - 2 * 16) / 15, "\(segment)")
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

    /// Under the plot, the report lists every beacon identity and advertiser as `survey`
    /// does (same rows, same order, same counts), and the advertisers' counts add up to the
    /// advertisements with AD data that `decode` prints.
    @Test(arguments: ["Captures/synthetic/office-walk/office-walk.btsnoop", "Captures/synthetic/crowded"])
    func listsTheSurveyUnderThePlot(_ path: String) throws {
        let full = RepositoryPaths.root + "/" + path
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        _ = try CommandLineTool.run(["decode", "--html", dir.file("d.html"), full])
        let html = try String(contentsOfFile: dir.file("d.html"), encoding: .utf8)
        let body = try #require(
            html.firstMatch(of: /<table class="data">.*?<tbody>(.*?)<\/tbody>/.dotMatchesNewlines())?.1)
        let rows = body.split(separator: "\n").map { row in
            row.matches(of: /<td>(.*?)<\/td>/).map { String($0.1) }
        }
        let survey = try CommandLineTool.run(["survey", full]).stdoutLines.map(Self.object)
        #expect(rows.count == survey.count && !rows.isEmpty)
        for (row, entry) in zip(rows, survey) {
            #expect(row.count == 9)
            #expect(row.first == entry["kind"] as? String && row.dropFirst().first == entry["type"] as? String)
            #expect(row.dropFirst(3).first == (entry["count"] as? NSNumber).map { "\($0)" }, "\(row) \(entry)")
        }
        let withData = try CommandLineTool.run(["decode", full]).stdoutLines.filter {
            $0.contains(#""data":""#) && !$0.contains(#""data":"""#)
        }
        let advertised = survey.filter { $0["kind"] as? String == "advertiser" }
            .reduce(0) { $0 + ((($1["count"] as? NSNumber)?.intValue) ?? 0) }
        #expect(advertised == withData.count)
    }

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }
}
