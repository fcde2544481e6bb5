import Foundation
import NearbyMessages
import NearbyReplay
import NearbyTestSupport
import NearbyTimeline
import Testing

/// `replay --html` over every committed synthetic scenario, read back without a browser: the
/// file is one self-contained HTML page whose SVG is well formed; it draws one found bar per
/// found event the scenario's ground truth expects (its vector), each explained by rule F1;
/// one point per callback of no subscription or publication; every sighting the replay
/// explains, as ticks or aggregates that count them; and the events printed are those of a
/// replay without `--html`.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct ReplayTimelineTests {
    static let scenarios = [
        "audio-meeting", "audio-notes", "background", "bluetooth-off", "crowded", "eid-rotation", "location-ibeacon",
        "office-walk", "permission-revoked", "phones-rotate", "stop-nearby", "ttl-and-release",
    ]

    static func object(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// The `replay` arguments of a synthetic vector and the events it expects.
    static func vector(_ name: String) throws -> (arguments: [String], expected: [[String: Any]]) {
        let folder = RepositoryPaths.root + "/Vectors/synthetic"
        let file = object(try String(contentsOfFile: folder + "/\(name).json", encoding: .utf8))
        let vector = try #require((file["vectors"] as? [[String: Any]])?.first)
        var arguments = ["replay", "--scenario", folder + "/" + (vector["scenario"] as? String ?? "")]
        for c in vector["captures"] as? [String] ?? [] { arguments += ["--capture", folder + "/" + c] }
        for a in vector["audio"] as? [String] ?? [] { arguments += ["--audio", folder + "/" + a] }
        let expected = (vector["expect"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        return (arguments, expected)
    }

    @Test(arguments: scenarios)
    func drawsEveryExpectedEventAndEverySighting(_ name: String) throws {
        let (arguments, expected) = try Self.vector(name)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let html = dir.file("\(name).html")
        let run = try CommandLineTool.run(arguments + ["--html", html])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == (try CommandLineTool.run(arguments)).stdout)
        let explained = try CommandLineTool.run(arguments + ["--explain"])
        let sightings = explained.stdoutLines.filter { $0.contains(#""kind":"sighting""#) }.count

        let doc = TimelineDocument(try String(contentsOfFile: html, encoding: .utf8))
        #expect(doc.html.hasPrefix("<!DOCTYPE html>") && doc.html.contains("<script>") && doc.html.contains("<style>"))
        #expect(doc.externalReferences.isEmpty)
        #expect(doc.wellFormed)
        let found = expected.filter { $0["event"] as? String == "found" }
        let bars = doc.marks("bar", "found")
        #expect(bars.count == found.count, "\(name)")
        for bar in bars { #expect(bar.title.contains("because F1"), "\(name): \(bar.title)") }
        // Each subscription's bars lie in the lanes under it, one per message found.
        for subscription in Set(found.compactMap { $0["subscription"] as? String }) {
            #expect(doc.marks("band", "active", lane: "subscription \(subscription)").count >= 1)
        }
        let unowned = expected.filter { $0["subscription"] == nil && $0["publication"] == nil }
        #expect(doc.marks(lane: "permission and error callbacks").count == unowned.count, "\(name)")
        let ticks = doc.marks("tick").filter { $0.group == "Sightings by source" }
        #expect(ticks.reduce(0) { $0 + $1.count } == sightings, "\(name)")
        #expect(sightings > 0)
    }

    /// bluetooth-off: “The user turns Bluetooth off at 30 s and on at 45 s” (its description).
    @Test func drawsBluetoothOffAsABandWithTheEventsThatBeganAndEndedIt() throws {
        let (arguments, _) = try Self.vector("bluetooth-off")
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        _ = try CommandLineTool.run(arguments + ["--html", dir.file("t.html")])
        let doc = TimelineDocument(try String(contentsOfFile: dir.file("t.html"), encoding: .utf8))
        let bands = doc.marks("band", "state", lane: "Bluetooth power")
        try #require(bands.count == 1)
        #expect(bands[0].title.hasPrefix("Bluetooth power off from 30.000000 s (scenario event"))
        #expect(bands[0].title.contains("until 45.000000 s (scenario event"))
        #expect(bands[0].title.contains("bluetoothPower=on"))
    }

    /// 5,000 found and 5,000 lost (a sighting burst every 3 s, lost timeout 1 s) and 20,000
    /// sightings: every found bar is drawn, the sightings are aggregated to at most one
    /// element per tick column (at the report's detail) and still all counted, and the file
    /// stays small enough to open.
    @Test func staysReadableAtTenThousandEvents() throws {
        var events: [String] = [
            #"{"time":0,"subscribe":{"id":"s","strategy":{"discoveryMediums":["audio"],"ttlSeconds":"infinite"}}}"#
        ]
        for cycle in 0..<5000 {
            for k in 0..<4 {
                let t = Double(cycle * 3) + Double(k) * 0.01
                events.append(#"{"time":\#(t),"sighting":{"token":"a1a1a1a1a1a1","medium":"audio"}}"#)
            }
        }
        let scenario = """
            {"scenario":1,"lostTimeoutSeconds":1,"timeOrigin":{"unixSeconds":0},
            "registry":{"registry":1,"publications":[{"id":"p","message":{"namespace":"","type":"t","content":"AA=="},
            "tokens":[{"token":"a1a1a1a1a1a1"}]}]},
            "events":[\(events.joined(separator: ",\n"))]}
            """
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.write(Array(scenario.utf8), to: "dense.json")
        let run = try CommandLineTool.run(["replay", "--scenario", path, "--html", dir.file("dense.html")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdoutLines.count == 10_000)
        let html = try String(contentsOfFile: dir.file("dense.html"), encoding: .utf8)
        #expect(html.utf8.count < 16 << 20)
        let doc = TimelineDocument(html)
        #expect(doc.wellFormed)
        #expect(doc.marks("bar", "found").count == 5000)
        let ticks = doc.marks("tick")
        #expect(ticks.reduce(0) { $0 + $1.count } == 20_000)
        let detail = try #require(html.firstMatch(of: /data-detail="([0-9]+)"/).flatMap { Int($0.1) })
        #expect(ticks.count <= TimelineHTML.columns * detail + 1)
        #expect(ticks.allSatisfy { $0.count == 1 || $0.title.hasPrefix("\($0.count) at ") })
    }

    /// Ids are byte for byte (docs/spec/engine.md R4): "café" with U+00E9 and "cafe" + U+0301
    /// are two subscriptions, each with its own lane and active span. The decomposed one is
    /// released at 2 s (its span ends there); the precomposed one stays until the end (5 s).
    @Test func canonicallyEquivalentIdsHaveTheirOwnLanes() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let token: [UInt8] = [1, 2, 3, 4, 5, 6]
        let message = Message(namespace: "", type: "chat", content: Array("hi".utf8))
        let scenario = Scenario(
            timeOrigin: .unixMicros(0),
            registry: Registry(publications: [.init(id: "p", message: message, tokens: [.init(token: token)])]),
            inputs: [
                (0, .action(.subscribe(id: composed, SubscriptionParams(type: "chat")))),
                (0, .action(.subscribe(id: decomposed, SubscriptionParams(type: "chat")))),
                (
                    1_000_000,
                    .sighting(Sighting(timeMicros: 1_000_000, medium: .ble, identity: SightingIdentity(.token, token)))
                ),
                (2_000_000, .action(.unsubscribe(id: decomposed))),
            ],
            endMicros: 5_000_000)
        var session = ReplaySession()
        session.explain = true
        let result = try session.run(scenario: scenario, captures: [], onIssue: { _ in })
        let timeline = ReplayTimeline.make(scenario: scenario, result: result, title: "t")
        let lanes = try #require(timeline.groups.first).lanes.filter { $0.label.hasPrefix("subscription ") }
        #expect(lanes.map { Array($0.label.utf8) } == [composed, decomposed].map { Array("subscription \($0)".utf8) })
        let spans = lanes.map { $0.marks.filter { $0.style == .active }.map { [$0.startMicros, $0.endMicros] } }
        #expect(spans == [[[0, 5_000_000]], [[0, 2_000_000]]])
    }
}
