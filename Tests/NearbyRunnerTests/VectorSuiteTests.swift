import Foundation
import NearbyReplay
import NearbyRunner
import NearbyTestSupport
import Testing

/// Every vector in `Vectors/` as its own test case, plus the runner's own behaviour: a
/// mutated expectation fails and points at what changed; bad vectors are errors of that
/// vector and the rest still run; reports have the structure CI systems read.
@Suite struct VectorSuiteTests {
    static let set = VectorSet.load([RepositoryPaths.root + "/Vectors"])
    static let ids = set.vectors.map(\.id)
    /// Shared by every vector case, as `check` shares one: the sound files decode once.
    static let audioFrames = AudioFrameCache()
    /// The metadata every vector carries (Vectors/README.md), for the vectors written inline.
    static let valid = #""clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid", "#
    static let invalid = #""clauses": ["ENGINE-V1"], "flags": [], "source": "hand", "verdict": "invalid", "#

    /// The reference's known failures (Vectors/known-failures.json), as `check` reads them.
    static let known = try! KnownFailures.load(RepositoryPaths.root + "/Vectors/" + KnownFailures.fileName)

    @Test(arguments: ids)
    func vector(_ id: String) {
        let v = Self.set.vectors.first { $0.id == id }!
        let r = Self.known.apply(VectorRunner.run(v, audioFrames: Self.audioFrames))
        #expect(r.status == .pass || r.status == .skipped, "\(r.message)\n\(r.details.joined(separator: "\n"))")
    }

    /// A listed vector is skipped while it fails and fails once it passes, so the list of
    /// known failures cannot hide a fixed bug; every listed id is a vector.
    @Test func aKnownFailureIsSkippedWhileItFailsAndFailsOnceItPasses() {
        let known = KnownFailures(reasons: ["k/one": "PCAPNG-3: the reader takes one link type"])
        let failing = VectorResult(id: "k/one", kind: "capture", file: "f", status: .fail, message: "records differ")
        let skipped = known.apply(failing)
        #expect(skipped.status == .skipped)
        #expect(skipped.message == "known failure: PCAPNG-3: the reader takes one link type")
        #expect(skipped.details.first == "fail: records differ")
        let passing = known.apply(VectorResult(id: "k/one", kind: "capture", file: "f", status: .pass))
        #expect(passing.status == .fail && passing.message.hasPrefix("passes, but known-failures.json lists it"))
        let other = VectorResult(id: "k/two", kind: "capture", file: "f", status: .fail, message: "x")
        #expect(known.apply(other) == other)
        let ids = Set(Self.ids)
        #expect(Self.known.reasons.keys.allSatisfy { ids.contains($0) }, "\(Self.known.reasons.keys.sorted())")
    }

    @Test func everyVectorFileLoads() {
        #expect(Self.set.errors.isEmpty, "\(Self.set.errors.map(\.description))")
        #expect(Self.set.vectors.count >= 58)
    }

    /// Copies one vector file (`file`, relative to `Vectors/`) into a temporary directory of its
    /// own, with paths to Captures made absolute and `edit` applied to its text. The other files are
    /// left out: they are the repository's, which `vector(_:)` checks, and a mutation of one
    /// file reaches no other.
    static func copyVectors(editing file: String, _ edit: (String) -> String) throws -> TemporaryDirectory {
        let dir = TemporaryDirectory()
        let root = RepositoryPaths.root
        var text = try String(contentsOfFile: root + "/Vectors/" + file, encoding: .utf8)
        text = edit(text.replacingOccurrences(of: "\"../../Captures/", with: "\"\(root)/Captures/"))
        _ = dir.write(Array(text.utf8), to: URL(fileURLWithPath: file).lastPathComponent)
        return dir
    }

    static func firstRange(_ text: String, _ target: String) -> Range<String.Index>? { text.range(of: target) }

    @Test(arguments: [
        // (file, text to change, replacement, id of the vector that must fail, text its report must show)
        (
            "scenarios/rules.json", "\"time\": 113,", "\"time\": 113.5,", "scenario/r4-rotation-two-phones",
            "time differs by 0.500000 s"
        ),
        (
            "scenarios/rules.json",
            "\"time\": 17,\n            \"event\": \"lost\",\n            \"subscription\": \"doors\"",
            "\"time\": 17,\n            \"event\": \"lost\",\n            \"subscription\": \"door\"",
            "scenario/f8-overlap-multi-device", "$.subscription: expected \"door\", got \"doors\""
        ),
        (
            "scenarios/rules.json",
            "\"toleranceSeconds\": 0,\n      \"scenario\": {\n        \"scenario\": 1,\n        \"registry\"",
            "\"toleranceSeconds\": 0,\n      \"scenario\": {\n        \"scenario\": 1,\n        "
                + "\"lostTimeoutSeconds\": 9,\n        \"registry\"",
            "scenario/o2-timeout-boundary", "event #2"
        ),
        (
            "frames/eddystone.json", "\"temperatureCelsius\": 25.5", "\"temperatureCelsius\": 25.25",
            "frame/eddystone/tlm", "beacons[0].temperatureCelsius: expected 25.25, got 25.5"
        ),
        (
            "frames/token.json", "\"offset\": 13", "\"offset\": 12", "frame/token/no-tx-power",
            "expected token/truncated at offset 12, got token/truncated at offset 13"
        ),
        (
            "captures/fixtures.json", "\"decoded\": 4", "\"decoded\": 5", "capture/air/le-ll-251-pcap",
            "records.decoded: expected 5, got 4"
        ),
        (
            "audio/synthetic.json", "\"token\": \"d0d0d0d0d0d0\"", "\"token\": \"d0d0d0d0d0d1\"",
            "audio/synthetic/audio-meeting", "frames[0].token: expected d0d0d0d0d0d1, got d0d0d0d0d0d0"
        ),
        (
            "audio/synthetic.json", "\"toleranceSeconds\": 0.001", "\"toleranceSeconds\": 0.000001",
            "audio/synthetic/audio-meeting", "frames[0].start: expected 2.013604 ± 1e-06 s"
        ),
        (
            "scenarios/limits.json", "\"reason\": \"33 characters; at most 32\"",
            "\"reason\": \"32 characters; at most 32\"", "scenario/v1-type-33-refused",
            "got:      $.events[0].subscribe.type: type has 33 characters"
        ),
        (
            "scenarios/limits.json", "\"path\": \"$.events[0].subscribe.strategy.ttlSeconds\"",
            "\"path\": \"$.events[0].subscribe.strategy\"", "scenario/v1-ttl-over-max-refused",
            "expected a refusal at $.events[0].subscribe.strategy (\"out of range\"), got one at "
                + "$.events[0].subscribe.strategy.ttlSeconds"
        ),
        (
            "scenarios/limits.json", "\"ttlSeconds\": 0\n", "\"ttlSeconds\": 1\n", "scenario/v1-ttl-zero-refused",
            "but it was accepted"
        ),
    ])
    func mutatedExpectationFailsAndPointsAtIt(file: String, from: String, to: String, id: String, shows: String) throws
    {
        var applied = false
        let dir = try Self.copyVectors(editing: file) { text in
            guard let r = text.range(of: from) else { return text }
            applied = true
            return text.replacingCharacters(in: r, with: to)
        }
        defer { dir.remove() }
        #expect(applied, "the mutation must apply to \(file)")
        let results = CheckSession(filter: nil, shard: nil, jobs: 2, knownFailures: Self.known).run(paths: [dir.path])
        let failed = results.filter { $0.status != .pass && $0.status != .skipped }
        #expect(failed.map(\.id) == [id], "only the mutated vector fails: \(failed.map { "\($0.id): \($0.message)" })")
        let report = CheckReport.text(results)
        #expect(report.contains(shows), "\(report)")
    }

    @Test func tightenedToleranceFailsAVectorThatNeedsIt() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let text = """
            {"vectorFile": 1, "vectors": [
              {"id": "t/loose", "kind": "scenario",\
             "description": "A lost time 0.2 s off passes with a 0.25 s tolerance.",\
             "clauses": ["ENGINE-F2"], "flags": [], "source": "hand", "verdict": "valid", "toleranceSeconds": 0.25,
               "scenario": {"scenario": 1, "events": [
                 {"time": 0, "subscribe": {"id": "s", "deviceTypesToDiscover": ["bleBeacons"],\
             "messageNamespace": "__reserved_namespace", "type": "__i_beacon_id"}},
                 {"time": 1, "sighting": {"iBeacon": "0000000000000000000000000000000000010002"}}]},
               "expect": {"events": [
                 {"event": "found", "time": 1, "subscription": "s", "message": {"namespace": "__reserved_namespace",\
             "type": "__i_beacon_id", "content": "AAAAAAAAAAAAAAAAAAAAAAABAAI="}},
                 {"event": "lost", "time": 11.2, "subscription": "s", "message": {"namespace": "__reserved_namespace",\
             "type": "__i_beacon_id", "content": "AAAAAAAAAAAAAAAAAAAAAAABAAI="}}]}}]}
            """
        _ = dir.write(Array(text.utf8), to: "loose.json")
        #expect(CheckSession().run(paths: [dir.path]).map(\.status) == [.pass])
        _ = dir.write(
            Array(text.replacingOccurrences(of: "\"toleranceSeconds\": 0.25", with: "\"toleranceSeconds\": 0.1").utf8),
            to: "loose.json")
        let r = CheckSession().run(paths: [dir.path])
        #expect(r.map(\.status) == [.fail])
        #expect(r.first?.message == "event #2: time differs by 0.200000 s, tolerance 0.100000 s")
    }

    @Test func badVectorsAreErrorsOfThatVectorAndTheOthersStillRun() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let good =
            #"{"id": "t/good", "kind": "frame", "description": "An empty AD decodes to no beacon.", \#(Self.valid)"input": "#
            + #"{"adData": ""}, "expect": {"beacons": []}}"#
        let schema =
            #"{"id": "t/schema", "kind": "frame", "description": "x", \#(Self.valid)"input": {"adData": "00"}, "expect": "#
            + #"{"beacons": []}, "colour": 1}"#
        let missing =
            #"{"id": "t/missing", "kind": "capture", "description": "x", \#(Self.valid)"capture": "nowhere.btsnoop", "#
            + #""expect": "#
            + #"{"beacons": [], "records": {"read": 0, "decoded": 0, "ignored": 0, "malformed": 0}}}"#
        let order =
            #"{"id": "t/order", "kind": "scenario", "description": "x", \#(Self.valid)"scenario": {"scenario": 1, "#
            + #""events": "#
            + #"[{"time": 2, "state": {"appState": "background"}}, {"time": 1, "state": {"appState": "#
            + #""foreground"}}]}, "expect": {"events": []}}"#
        let expectedOrder =
            #"{"id": "t/expected-order", "kind": "scenario", "description": "x", \#(Self.valid)"scenario": "#
            + #"{"scenario": 1}, "#
            + #""expect": {"events": [{"event": "lost", "time": 2}, {"event": "lost", "time": 1}]}}"#
        _ = dir.write(
            Array(
                #"{"vectorFile": 1, "vectors": [\#(good), \#(schema), \#(missing), \#(order), \#(expectedOrder)]}"#.utf8
            ), to: "a.json")
        _ = dir.write(Array("{ not json".utf8), to: "b.json")
        let results = CheckSession().run(paths: [dir.path])
        let byID = Dictionary(
            results.map { ($0.id + "|" + $0.file.split(separator: "/").last!, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID["t/good|a.json"]?.status == .pass)
        #expect(byID["t/schema|a.json"]?.status == .error)
        #expect(
            byID["t/schema|a.json"]?.message
                == "$.vectors[1].colour: unknown field \"colour\" (allowed: id, description, kind, clauses, flags, "
                + "source, verdict, alternatives, toleranceSeconds, skipWhenFilesAbsent, input, capture, scenario, "
                + "captures, audio, expect)"
        )
        #expect(byID["t/missing|a.json"]?.status == .error)
        #expect(byID["t/missing|a.json"]?.message == "missing file: \(dir.path)/nowhere.btsnoop")
        #expect(
            byID["t/order|a.json"]?.message.hasPrefix("$.vectors[3].scenario.events[1].time: events are out of order")
                == true)
        #expect(
            byID["t/expected-order|a.json"]?.message
                == "$.vectors[4].expect.events[1].time: expected events are out of time order")
        #expect(byID["(file)|b.json"]?.message.hasPrefix("line 1, column 3") == true)
        #expect(results.count == 6)
    }

    @Test func aRefusalVectorIsInlineAndFeedsNoFiles() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let refused = #""expect": {"refused": {"path": "$.events[0].time", "reason": "out of range"}}"#
        let file =
            #"{"id": "t/file", "kind": "scenario", "description": "x", \#(Self.invalid)"scenario": "s.json", "#
            + #"\#(refused)}"#
        let captures =
            #"{"id": "t/captures", "kind": "scenario", "description": "x", \#(Self.invalid)"#
            + #""scenario": {"scenario": 1}, "captures": "#
            + #"["a.pcap"], \#(refused)}"#
        let unrooted =
            #"{"id": "t/unrooted", "kind": "scenario", "description": "x", \#(Self.invalid)"#
            + #""scenario": {"scenario": 1}, "expect": "#
            + #"{"refused": {"path": "events[0].time", "reason": "x"}}}"#
        let both =
            #"{"id": "t/both", "kind": "scenario", "description": "x", \#(Self.invalid)"#
            + #""scenario": {"scenario": 1}, "expect": "#
            + #"{"events": [], "refused": {"path": "$", "reason": "x"}}}"#
        let ok =
            #"{"id": "t/ok", "kind": "scenario", "description": "x", \#(Self.invalid)"#
            + #""scenario": {"scenario": 1, "events": "#
            + #"[{"time": -1, "state": {"appState": "background"}}]}, \#(refused)}"#
        _ = dir.write(
            Array(#"{"vectorFile": 1, "vectors": [\#(file), \#(captures), \#(unrooted), \#(both), \#(ok)]}"#.utf8),
            to: "a.json")
        let byID = Dictionary(
            CheckSession().run(paths: [dir.path]).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(
            byID["t/file"]?.message
                == "$.vectors[0].scenario: a scenario expected to be refused is inline, so the vector shows what is "
                + "refused"
        )
        #expect(
            byID["t/captures"]?.message == "$.vectors[1]: \"captures\" does not belong in a refused-scenario vector")
        #expect(
            byID["t/unrooted"]?.message.hasPrefix(
                "$.vectors[2].expect.refused.path: a JSON path rooted at the scenario") == true)
        #expect(byID["t/both"]?.message.hasPrefix("$.vectors[3].expect.events: unknown field \"events\"") == true)
        #expect(
            byID["t/ok"]?.status == .pass,
            "a refusal at the expected path and reason passes: \(byID["t/ok"]?.message ?? "")")
    }

    @Test func resultsAreTheSameForAnyJobCountAndShardsPartitionTheSet() {
        let root = RepositoryPaths.root + "/Vectors"
        let one = CheckSession(jobs: 1).run(paths: [root])
        let four = CheckSession(jobs: 4).run(paths: [root])
        #expect(one == four)
        let shards = (1...3).map { CheckSession(shard: ($0, 3)).run(paths: [root]) }
        #expect(shards.flatMap { $0 }.map(\.id).sorted() == one.map(\.id).sorted())
        #expect(Set(shards[0].map(\.id)).isDisjoint(with: shards[1].map(\.id)))
        #expect(
            CheckSession(filter: "frame/token/").run(paths: [root]).map(\.id)
                == one.map(\.id).filter { $0.hasPrefix("frame/token/") })
    }
}
