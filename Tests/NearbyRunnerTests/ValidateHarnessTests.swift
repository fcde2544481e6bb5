import NearbyRunner
import NearbyTestSupport
import Testing

/// `validate` against implementations that misbehave: each misbehaviour is a clear verdict
/// for the vector it hit, the run completes within its time-outs, and the vectors after it
/// still run (docs/interop.md §5). The implementations are small Python scripts.
@Suite(.enabled(if: Python.has(["json"]), "python3 is not installed"))
struct ValidateHarnessTests {
    /// Three frame vectors: two clean decodes and one fault, with expectations by hand
    /// (formats.md §1.8 UID advertisement; an empty AD).
    static let vectors = #"""
    {"vectorFile": 1, "vectors": [
      {"id": "h/a-empty", "kind": "frame", "description": "An empty AD holds no beacon.", "input": {"adData": ""}, "expect": {"beacons": []}},
      {"id": "h/b-uid", "kind": "frame", "description": "formats.md §1.8 UID advertisement.",
       "input": {"adData": "0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000"},
       "expect": {"beacons": [{"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77", "instance": "000000000001", "reserved": "0000"}]}},
      {"id": "h/c-truncated", "kind": "frame", "description": "An AD length running past the end.", "input": {"adData": "0201060503aafe"},
       "expect": {"error": {"code": "ad/length-overrun", "offset": 3}}}
    ]}
    """#

    /// A Python implementation: answers the handshake with `levels`, then calls `behave(request, n)`.
    static func implementation(_ dir: TemporaryDirectory, levels: String = #"["frames"]"#, body: String) -> String {
        let script = """
        import json, sys, time
        def reply(o):
            sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
        hello = json.loads(sys.stdin.readline())
        reply({"hello": {"protocol": 1, "name": "fake", "version": "0", "levels": \(levels)}})
        n = 0
        for line in sys.stdin:
            req = json.loads(line); n += 1
            rid = req["id"]
            good = {"h/a-empty": {"beacons": []},
                    "h/b-uid": {"beacons": [{"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77", "instance": "000000000001", "reserved": "0000"}]},
                    "h/c-truncated": {"error": {"code": "ad/length-overrun", "offset": 3}}}[rid]
        \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
        """
        let path = dir.write(Array(script.utf8), to: "impl.py")
        return "exec python3 -u \(path)"
    }

    static func run(_ dir: TemporaryDirectory, _ command: String, timeout: Double = 2) -> ValidateSession.Outcome {
        let v = dir.write(Array(vectors.utf8), to: "v.json")
        let start = ContinuousClock.now
        let outcome = ValidateSession(command: command, timeoutSeconds: timeout, handshakeSeconds: timeout).run(paths: [v])
        #expect(ContinuousClock.now - start < .seconds(3 * timeout * 4 + 5), "the run completes within its time-outs")
        return outcome
    }

    static func verdicts(_ o: ValidateSession.Outcome) -> [String] {
        o.results.map { "\($0.id) \($0.status.rawValue)" + ($0.message.isEmpty ? "" : ": " + $0.message) }
    }

    @Test func aCorrectImplementationPassesEveryVector() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: #"good["id"] = rid; reply(good)"#))
        #expect(o.implementation == ValidateSession.Implementation(name: "fake", version: "0", levels: [.frames]))
        #expect(o.results.map(\.status) == [.pass, .pass, .pass], "\(Self.verdicts(o))")
        #expect(o.starts == 1)
    }

    @Test func aWrongAnswerFailsWithTheFirstDivergence() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: """
        if rid == "h/b-uid": good["beacons"][0]["txPower"] = 238
        good["id"] = rid; reply(good)
        """))
        #expect(o.results.map(\.status) == [.pass, .fail, .pass])
        #expect(o.results[1].message == "beacons[0].txPower: expected -18, got 238")
    }

    @Test func anImplementationThatHangsTimesOutAndIsRestartedForTheNextVector() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: """
        if rid == "h/b-uid": time.sleep(3600)
        good["id"] = rid; reply(good)
        """), timeout: 1)
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(o.results[1].message == "timeout: no reply within 1.0 s")
        #expect(o.starts == 2)
    }

    @Test func anImplementationThatCrashesMidRunIsReportedWithItsExitAndError() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: """
        if rid == "h/b-uid":
            sys.stderr.write("Traceback: KeyError 'txPower'\\n"); sys.stderr.flush(); sys.exit(3)
        good["id"] = rid; reply(good)
        """))
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(o.results[1].message == "crashed: the implementation ended (exit status 3) before replying; its last error line: \"Traceback: KeyError 'txPower'\"")
    }

    @Test func garbageOnStandardOutputIsAMalformedReply() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: """
        if rid == "h/a-empty": sys.stdout.write("decoding... done\\n"); sys.stdout.flush(); continue
        if rid == "h/b-uid": reply([1, 2]); continue
        good["id"] = rid; reply(good)
        """))
        #expect(o.results.map(\.status) == [.error, .error, .pass], "\(Self.verdicts(o))")
        #expect(o.results[0].message.hasPrefix("malformed reply: ") && o.results[0].message.hasSuffix("in \"decoding... done\""))
        #expect(o.results[1].message == "malformed reply: not a JSON object: \"[1,2]\"" || o.results[1].message == "malformed reply: not a JSON object: \"[1, 2]\"")
    }

    @Test func aReplyForAnotherVectorIsAWrongIDVerdict() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: """
        good["id"] = "h/zz" if rid == "h/b-uid" else rid; reply(good)
        """))
        #expect(o.results.map(\.status) == [.pass, .error, .pass])
        #expect(o.results[1].message == #"wrong vector id: the reply is for "h/zz", not "h/b-uid""#)
    }

    @Test func anImplementationSupportingNoLevelSkipsEveryVector() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, levels: "[]", body: #"good["id"] = rid; reply(good)"#))
        #expect(o.implementation?.levels == [])
        #expect(o.results.map(\.status) == [.skipped, .skipped, .skipped])
        #expect(o.results.allSatisfy { $0.message == "level frames not supported by the implementation" })
    }

    @Test func anImplementationThatNeverStartsIsGivenUpAfterThreeTries() {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let o = Self.run(dir, "exec /nonexistent/implementation --serve", timeout: 1)
        #expect(o.implementation == nil)
        #expect(o.results.map(\.status) == [.error, .error, .error])
        #expect(o.results[0].message.hasPrefix("could not start the implementation: it ended (exit status 127) before the handshake"), "\(Self.verdicts(o))")
        #expect(o.starts == 3)
    }

    @Test func theReferenceAdapterPassesThroughTheProtocol() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        guard let tool = CommandLineTool.executable else { Issue.record("the tool is not built"); return }
        let o = Self.run(dir, "exec \(tool) adapter")
        #expect(o.implementation?.levels == [.audio, .captures, .events, .frames])
        #expect(o.results.map(\.status) == [.pass, .pass, .pass], "\(Self.verdicts(o))")
    }
}
