import Foundation
import NearbyMessages
import NearbyReplay
import NearbyTestSupport
import Testing

/// `replay --explain` over every committed synthetic scenario: the events are those the
/// scenario's ground truth expects (its vector), each followed by an evidence line whose rule
/// and evidence agree with docs/spec/engine.md (ENGINE-F1: the finding sighting at the event's time;
/// ENGINE-F2: a last sighting one lost timeout before; the handlers' rules by event); every sighting
/// line gives a verdict for every subscription the scenario makes.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct ReplayExplainTests {
    static let handlerRules = [
        "permissionRequest": "D1", "permissionAlert": "D4", "permissionChanged": "H1",
        "bluetoothPowerError": "H2", "bluetoothPermissionError": "H3", "microphonePermissionError": "H4",
    ]

    static func object(_ line: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]) ?? [:]
    }

    static func seconds(_ value: Any?) -> Int64 {
        Int64((((value as? NSNumber)?.doubleValue ?? .nan) * 1e6).rounded())
    }

    @Test(arguments: [
        "audio-meeting", "audio-notes", "background", "bluetooth-off", "crowded", "eid-rotation", "location-ibeacon",
        "office-walk", "permission-revoked", "phones-rotate", "stop-nearby", "ttl-and-release",
    ])
    func everyExpectedEventHasItsEvidence(_ name: String) throws {
        let folder = RepositoryPaths.root + "/Vectors/synthetic"
        let file = Self.object(try String(contentsOfFile: folder + "/\(name).json", encoding: .utf8))
        let vector = try #require((file["vectors"] as? [[String: Any]])?.first)
        var arguments = ["replay", "--explain", "--scenario", folder + "/" + (vector["scenario"] as? String ?? "")]
        for c in vector["captures"] as? [String] ?? [] { arguments += ["--capture", folder + "/" + c] }
        for a in vector["audio"] as? [String] ?? [] { arguments += ["--audio", folder + "/" + a] }
        let scenarioPath = folder + "/" + (vector["scenario"] as? String ?? "")
        let scenario = Self.object(try String(contentsOfFile: scenarioPath, encoding: .utf8))
        let lostTimeout = Self.seconds(scenario["lostTimeoutSeconds"] ?? 10)
        let subscriptions = Set(
            (scenario["events"] as? [[String: Any]] ?? []).compactMap {
                ($0["subscribe"] as? [String: Any])?["id"] as? String
            })

        let run = try CommandLineTool.run(arguments)
        #expect(run.status == 0, "\(run.stderr)")
        // The events are those of a replay without --explain, byte for byte, and those the
        // vector expects (within its tolerance: audio frame times).
        let plain = try CommandLineTool.run(arguments.filter { $0 != "--explain" })
        let eventLines = run.stdoutLines.filter { $0.contains(#""kind":"event""#) }
        #expect(eventLines.map { $0.replacingOccurrences(of: #","kind":"event""#, with: "") } == plain.stdoutLines)
        let lines = run.stdoutLines.map(Self.object)
        let expected = (vector["expect"] as? [String: Any])?["events"] as? [[String: Any]] ?? []
        let tolerance = Self.seconds(vector["toleranceSeconds"] ?? 0)
        let events = lines.filter { $0["kind"] as? String == "event" }
        #expect(events.count == expected.count)
        for (got, want) in zip(events, expected) {
            #expect(got["event"] as? String == want["event"] as? String, "\(name): \(got) vs \(want)")
            #expect(got["subscription"] as? String == want["subscription"] as? String, "\(name): \(got)")
            #expect(abs(Self.seconds(got["time"]) - Self.seconds(want["time"])) <= tolerance, "\(name): \(got)")
        }
        var sightings = 0
        for (i, line) in lines.enumerated() {
            switch line["kind"] as? String {
            case "sighting":
                sightings += 1
                let named = (line["subscriptions"] as? [[String: Any]] ?? []).compactMap {
                    $0["subscription"] as? String
                }
                #expect(Set(named) == subscriptions && named.count == subscriptions.count, "\(name): \(line)")
            case "event":
                let why = i + 1 < lines.count ? lines[i + 1] : [:]
                #expect(why["kind"] as? String == "evidence", "\(name): no evidence after \(line)")
                check(event: line, evidence: why, lostTimeout: lostTimeout, context: name)
            default:
                break
            }
        }
        #expect(sightings > 0)
        // A capture sighting names an advertiser `decode` gives a beacon for in its record (one
        // HCI event can report several advertisements) with its RSSI.
        var addresses: [String: Set<String>] = [:]
        for c in vector["captures"] as? [String] ?? [] {
            for line in try CommandLineTool.run(["decode", "--beacons-only", folder + "/" + c]).stdoutLines {
                let ad = Self.object(line)
                let key = "\(ad["file"] ?? "") \(ad["record"] ?? "") \(ad["rssi"] ?? "")"
                addresses[key, default: []].insert(ad["address"] as? String ?? "")
            }
        }
        for line in lines where line["kind"] as? String == "sighting" && line["capture"] != nil {
            let key = "\(line["capture"] ?? "") \(line["record"] ?? "") \(line["rssi"] ?? "")"
            let address = line["address"] as? String ?? "none"
            #expect(addresses[key]?.contains(address) == true, "\(name): \(line)")
        }
    }

    func check(event: [String: Any], evidence why: [String: Any], lostTimeout: Int64, context: String) {
        let kind = event["event"] as? String ?? ""
        let time = Self.seconds(event["time"])
        #expect(why["event"] as? String == kind && Self.seconds(why["time"]) == time, "\(context): \(why)")
        #expect(why["subscription"] as? String == event["subscription"] as? String, "\(context): \(why)")
        let rule = why["rule"] as? String ?? ""
        let sighting = why["sighting"] as? [String: Any]
        switch kind {
        case "found":
            #expect(rule == "F1" && Self.seconds(sighting?["time"]) == time, "\(context): \(why)")
        case "lost":
            #expect(["F2", "F3", "F6", "F7"].contains(rule), "\(context): \(why)")
            if rule == "F2" {
                #expect(Self.seconds(sighting?["time"]) + lostTimeout == time, "\(context): \(why)")
                #expect(why["timer"] as? String == "lost-timeout", "\(context): \(why)")
            }
            if rule == "F3" { #expect(!(why["sourcesStopped"] as? [String] ?? []).isEmpty, "\(context): \(why)") }
        case "subscriptionExpired":
            #expect(rule == "F6" && why["timer"] as? String == "ttl" || rule == "F7", "\(context): \(why)")
        case "publicationExpired":
            #expect(rule == "P1" || rule == "F7", "\(context): \(why)")
        default:
            #expect(rule == Self.handlerRules[kind], "\(context): \(why)")
        }
    }

    /// ENGINE-A1: a sighting before the scenario makes the subscription is not counted, and says so.
    @Test func aSightingBeforeTheSubscriptionIsNotSubscribedYet() throws {
        let token: [UInt8] = [1, 2, 3, 4, 5, 6]
        let message = Message(namespace: "", type: "chat", content: Array("hi".utf8))
        let scenario = Scenario(
            timeOrigin: .unixMicros(0),
            registry: Registry(publications: [.init(id: "p", message: message, tokens: [.init(token: token)])]),
            inputs: [
                (0, .sighting(Sighting(timeMicros: 0, medium: .ble, identity: SightingIdentity(.token, token)))),
                (1_000_000, .action(.subscribe(id: "s1", SubscriptionParams(type: "chat")))),
                (
                    2_000_000,
                    .sighting(Sighting(timeMicros: 2_000_000, medium: .ble, identity: SightingIdentity(.token, token)))
                ),
            ])
        var session = ReplaySession()
        session.explain = true
        let result = try session.run(scenario: scenario, captures: [], onIssue: { _ in })
        let verdicts = result.explanations.compactMap { x -> SubscriptionEngine.SightingVerdict? in
            if case .sighting(_, let v) = x.body { return v.first } else { return nil }
        }
        #expect(verdicts.map(\.stop) == [.notSubscribedYet, nil])
        #expect(verdicts.last?.messages == [.init(message: message, newlyFound: true)])
    }

    /// Ids are byte for byte (ENGINE-R4, as the engine keeps them): "café" with
    /// U+00E9 and "cafe" + U+0301, which Swift's `String ==` calls equal, are two
    /// subscriptions. Every sighting line names both, in UTF-8 byte order (the decomposed one,
    /// 65 CC 81, before the precomposed one, C3 A9), each with its own verdict: after the
    /// decomposed one is released (ENGINE-F5: no lost) it is `released` while the other counts, and
    /// the other's lost keeps its own evidence (ENGINE-F2, its last sighting a lost timeout before).
    @Test func canonicallyEquivalentIdsAreTwoSubscriptions() throws {
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let token: [UInt8] = [1, 2, 3, 4, 5, 6]
        let message = Message(namespace: "", type: "chat", content: Array("hi".utf8))
        func sighting(_ seconds: Int64) -> (Int64, Scenario.Input) {
            let t = seconds * 1_000_000
            return (t, .sighting(Sighting(timeMicros: t, medium: .ble, identity: SightingIdentity(.token, token))))
        }
        var configuration = SubscriptionEngine.Configuration()
        configuration.lostTimeoutMicros = 10_000_000
        let scenario = Scenario(
            configuration: configuration, timeOrigin: .unixMicros(0),
            registry: Registry(publications: [.init(id: "p", message: message, tokens: [.init(token: token)])]),
            inputs: [
                (0, .action(.subscribe(id: composed, SubscriptionParams(type: "chat")))),
                (0, .action(.subscribe(id: decomposed, SubscriptionParams(type: "chat")))),
                sighting(1),
                (2_000_000, .action(.unsubscribe(id: decomposed))),
                sighting(3),
            ])
        var session = ReplaySession()
        session.explain = true
        let result = try session.run(scenario: scenario, captures: [], onIssue: { _ in })
        let verdicts = result.explanations.compactMap { x -> [SubscriptionEngine.SightingVerdict]? in
            if case .sighting(_, let v) = x.body { return v } else { return nil }
        }
        let bytes = [Array(decomposed.utf8), Array(composed.utf8)]
        #expect(verdicts.map { $0.map { Array($0.subscription.utf8) } } == [bytes, bytes])
        #expect(verdicts.map { $0.map(\.stop) } == [[nil, nil], [.released, nil]])
        #expect(verdicts.last?.last?.messages == [.init(message: message, newlyFound: false)])
        // Found by each at 1 s (ENGINE-F1); lost by the precomposed one only, at 3 + 10 s (ENGINE-F2).
        var why: [(String, [UInt8], Int64, String, Int64?)] = []
        for x in result.explanations {
            guard case .evidence(let i, let evidence) = x.body else { continue }
            let e = result.events[i]
            why.append(
                (
                    e.kind.rawValue, Array((e.subscription ?? "").utf8), e.timeMicros, evidence.rule,
                    evidence.sighting?.sighting.timeMicros
                ))
        }
        let found = why.filter { $0.0 == "found" }
        #expect(found.map(\.1) == bytes && found.allSatisfy { $0.2 == 1_000_000 && $0.3 == "F1" && $0.4 == 1_000_000 })
        let lost = why.filter { $0.0 == "lost" }
        #expect(lost.map(\.1) == [Array(composed.utf8)])
        #expect(lost.map(\.2) == [13_000_000] && lost.map(\.3) == ["F2"] && lost.map(\.4) == [3_000_000])
    }
}
