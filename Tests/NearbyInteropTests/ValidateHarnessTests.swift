import NearbyInterop
import NearbyRunner
import NearbyTestSupport
import Testing

/// `validate` against implementations that misbehave: each misbehaviour is a clear verdict
/// for the vector it hit, the run completes within its time-outs, and the vectors after it
/// still run (INTEROP-32 to INTEROP-41). The implementations are small Python scripts.
@Suite(.enabled(if: Python.has(["json"]), "python3 is not installed"))
struct ValidateHarnessTests {
    /// Three frame vectors: two clean decodes and one fault, with expectations by hand
    /// (an empty AD, an Eddystone-UID advertisement, an AD length running past the end).
    static let vectors = #"""
        {"vectorFile": 1, "vectors": [
          {"id": "h/a-empty", "kind": "frame", "description": "An empty AD holds no beacon.", "input": {"adData": ""},\#
         "clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid", "expect": {"beacons": []}},
          {"id": "h/b-uid", "kind": "frame", "description": "An Eddystone-UID advertisement.",
           "clauses": ["EDDYSTONE-UID-1"], "flags": [], "source": "spec-example", "verdict": "valid",
           "input": {"adData": "0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000"},
           "expect": {"beacons": [{"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77",\#
         "instance": "000000000001", "reserved": "0000"}]}},
          {"id": "h/c-truncated", "kind": "frame", "description": "An AD length running past the end.",\#
         "input": {"adData": "0201060503aafe"}, "clauses": ["AD-1"], "flags": ["LengthLie"], "source": "hand",
           "verdict": "invalid",
           "expect": {"error": {"code": "ad/length-overrun", "offset": 3}}}
        ]}
        """#

    /// A Python implementation: answers the handshake with `levels`, then calls `behave(request, n)`.
    /// A session in a process whose SIGPIPE keeps its default action, ending the process: an
    /// implementation that exits before reading its request must still not end the test
    /// process (`ChildProcess` writes with SIGPIPE blocked and consumed).
    static func session(command: String, timeoutSeconds: Double, handshakeSeconds: Double) -> ValidateSession {
        ValidateSession(command: command, timeoutSeconds: timeoutSeconds, handshakeSeconds: handshakeSeconds)
    }

    static func implementation(
        _ dir: TemporaryDirectory, levels: String = #"["frames"]"#, hello: String = "", body: String
    ) -> String {
        let script = """
            import json, sys, time
            def reply(o):
                sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
            hello = json.loads(sys.stdin.readline())
            reply({"hello": {"protocol": 1, "name": "fake", "version": "0", "levels": \(levels)\(hello)}})
            n = 0
            for line in sys.stdin:
                req = json.loads(line); n += 1
                rid = req["id"]
                # Request ids are opaque (INTEROP-18): the vector is known by its input.
                vid = {"": "h/a-empty", "0201060303aafe1716aafe00ee8b0ca750095477cb3e770000000000010000": "h/b-uid",
                       "0201060503aafe": "h/c-truncated"}[req["frame"]["adData"]]
                good = {"h/a-empty": {"beacons": []},
                        "h/b-uid": {"beacons": [{"type": "eddystone-uid", "txPower": -18,\
             "namespace": "8b0ca750095477cb3e77", "instance": "000000000001", "reserved": "0000"}]},
                        "h/c-truncated": {"error": {"code": "ad/length-overrun", "offset": 3}}}[vid]
            \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
        let path = dir.write(Array(script.utf8), to: "impl.py")
        return "exec python3 -u \(path)"
    }

    static func run(_ dir: TemporaryDirectory, _ command: String, timeout: Double = 2) -> ValidateSession.Outcome {
        let v = dir.write(Array(vectors.utf8), to: "v.json")
        let start = ContinuousClock.now
        let outcome = ValidateHarnessTests.session(command: command, timeoutSeconds: timeout, handshakeSeconds: timeout)
            .run(paths: [v])
        #expect(ContinuousClock.now - start < .seconds(3 * timeout * 4 + 5), "the run completes within its time-outs")
        return outcome
    }

    static func verdicts(_ o: ValidateSession.Outcome) -> [String] {
        o.results.map { "\($0.id) \($0.status.rawValue)" + ($0.message.isEmpty ? "" : ": " + $0.message) }
    }

    /// Holds INTEROP-1, INTEROP-4, INTEROP-7, INTEROP-18, INTEROP-21 and INTEROP-27.
    @Test func aCorrectImplementationPassesEveryVector() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, body: #"good["id"] = rid; reply(good)"#))
        #expect(o.implementation == ValidateSession.Implementation(name: "fake", version: "0", levels: [.frames]))
        #expect(o.results.map(\.status) == [.pass, .pass, .pass], "\(Self.verdicts(o))")
        #expect(o.starts == 1)
    }

    /// A level name the runner does not know is passed over: the handshake succeeds and the
    /// frames vectors run. Holds INTEROP-10.
    @Test func anUnknownLevelInTheHandshakeIsIgnored() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir, Self.implementation(dir, levels: #"["holograms", "frames"]"#, body: #"good["id"] = rid; reply(good)"#))
        #expect(o.implementation == ValidateSession.Implementation(name: "fake", version: "0", levels: [.frames]))
        #expect(o.results.map(\.status) == [.pass, .pass, .pass], "\(Self.verdicts(o))")
    }

    /// Holds INTEROP-25 and INTEROP-32.
    @Test func aWrongAnswerFailsWithTheFirstDivergence() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid": good["beacons"][0]["txPower"] = 238
                    good["id"] = rid; reply(good)
                    """))
        #expect(o.results.map(\.status) == [.pass, .fail, .pass])
        #expect(o.results[1].message == "beacons[0].txPower: expected -18, got 238")
    }

    /// Holds INTEROP-35.
    @Test func anImplementationThatHangsTimesOutAndIsRestartedForTheNextVector() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid": time.sleep(3600)
                    good["id"] = rid; reply(good)
                    """), timeout: 1)
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(o.results[1].message == "timeout: no reply within 1.0 s")
        #expect(o.starts == 2)
    }

    /// Holds INTEROP-3 and INTEROP-37.
    @Test func anImplementationThatCrashesMidRunIsReportedWithItsExitAndError() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid":
                        sys.stderr.write("Traceback: KeyError 'txPower'\\n"); sys.stderr.flush(); sys.exit(3)
                    good["id"] = rid; reply(good)
                    """))
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(
            o.results[1].message
                == "crashed: the implementation ended (exit status 3) before replying; its last error line: "
                + "\"Traceback: KeyError 'txPower'\""
        )
    }

    /// Holds INTEROP-2 and INTEROP-33.
    @Test func garbageOnStandardOutputIsAMalformedReply() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/a-empty": sys.stdout.write("decoding... done\\n"); sys.stdout.flush(); continue
                    if vid == "h/b-uid": reply([1, 2]); continue
                    good["id"] = rid; reply(good)
                    """))
        #expect(o.results.map(\.status) == [.error, .error, .pass], "\(Self.verdicts(o))")
        #expect(
            o.results[0].message.hasPrefix("malformed reply: ")
                && o.results[0].message.hasSuffix("in \"decoding... done\""))
        #expect(
            o.results[1].message == "malformed reply: not a JSON object: \"[1,2]\""
                || o.results[1].message == "malformed reply: not a JSON object: \"[1, 2]\"")
    }

    /// Holds INTEROP-18 and INTEROP-39.
    @Test func aReplyForAnotherVectorIsAWrongIDVerdict() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    good["id"] = "h/zz" if vid == "h/b-uid" else rid; reply(good)
                    """))
        #expect(o.results.map(\.status) == [.pass, .error, .pass])
        // The request's id is opaque (INTEROP-18): the message names it, not the vector's.
        let message = o.results[1].message
        #expect(message.hasPrefix(#"wrong vector id: the reply is for "h/zz", not this request's id "r"#), "\(message)")
        #expect(!message.contains("h/b-uid"))
    }

    /// Holds INTEROP-9.
    @Test func anImplementationSupportingNoLevelSkipsEveryVector() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(dir, Self.implementation(dir, levels: "[]", body: #"good["id"] = rid; reply(good)"#))
        #expect(o.implementation?.levels == [])
        #expect(o.results.map(\.status) == [.skipped, .skipped, .skipped])
        #expect(o.results.allSatisfy { $0.message == "level frames not supported by the implementation" })
    }

    /// Holds INTEROP-3, INTEROP-11 and INTEROP-40.
    @Test func anImplementationThatNeverStartsIsGivenUpAfterThreeTries() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        // The shell fails at once; 5 s leaves a loaded machine time to start it, so that
        // the verdict is the shell's end and not a handshake time-out.
        let o = Self.run(dir, "exec /nonexistent/implementation --serve", timeout: 5)
        #expect(o.implementation == nil)
        #expect(o.results.map(\.status) == [.error, .error, .error])
        // The shell may exit before or after the handshake is written (a race under load):
        // either way the start failed, and the shell's own error line is quoted.
        let first = o.results[0].message
        #expect(
            first.hasPrefix("could not start the implementation: it ended (exit status 127) before the handshake")
                || first.hasPrefix("could not start the implementation: it did not read the handshake"),
            "\(Self.verdicts(o))")
        #expect(first.contains("/nonexistent/implementation"), "the shell's error is quoted: \(first)")
        #expect(o.starts == 3)
    }

    /// A reply longer than the 64 MiB cap (INTEROP-33) is malformed, found as soon
    /// as the cap is passed: reading is linear, so 80 MiB take seconds, not minutes.
    /// Holds INTEROP-33 and INTEROP-34.
    @Test func aReplyOverTheLineCapIsMalformedAndFoundQuickly() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let start = ContinuousClock.now
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid":
                        block = "x" * (1 << 20)
                        for _ in range(80): sys.stdout.write(block)
                        sys.stdout.flush(); time.sleep(3600)
                    good["id"] = rid; reply(good)
                    """), timeout: 30)
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(o.results[1].message == "malformed reply: a line longer than 67108864 bytes")
        #expect(ContinuousClock.now - start < .seconds(20), "the 30 s time-out was not needed")
    }

    /// A reply that keeps trickling without a newline still times out at the deadline.
    /// Holds INTEROP-35.
    @Test func aReplyThatNeverEndsTimesOutAtTheDeadline() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let start = ContinuousClock.now
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid":
                        while True: sys.stdout.write("x"); sys.stdout.flush(); time.sleep(0.01)
                    good["id"] = rid; reply(good)
                    """), timeout: 1)
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(o.results[1].message == "timeout: no reply within 1.0 s")
        #expect(ContinuousClock.now - start < .seconds(8))
    }

    /// A 20 MiB reply line is read in linear time (it took over a minute when each chunk
    /// rescanned the whole buffer): a wrong answer, judged, well inside the time-out.
    /// Holds INTEROP-34.
    @Test func aLongReplyLineIsReadInLinearTime() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid": good = {"beacons": [{"type": "x" * (20 << 20)}]}
                    good["id"] = rid; reply(good)
                    """), timeout: 15)
        #expect(o.results.map(\.status) == [.pass, .fail, .pass], "\(Self.verdicts(o))")
    }

    /// After three time-outs in a row the implementation is given up: the other vectors
    /// are not run, each saying so.
    /// Holds INTEROP-36.
    @Test func anImplementationThatTimesOutThreeTimesInARowIsGivenUp() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let vectors =
            "{\"vectorFile\": 1, \"vectors\": ["
            + (1...5).map {
                "{\"id\": \"t/\($0)\", \"kind\": \"frame\", \"description\": \"An empty AD holds no beacon.\", "
                    + "\"clauses\": [\"AD-1\"], \"flags\": [], \"source\": \"hand\", \"verdict\": \"valid\", "
                    + "\"input\": {\"adData\": \"\"}, \"expect\": {\"beacons\": []}}"
            }.joined(separator: ", ") + "]}"
        let v = dir.write(Array(vectors.utf8), to: "t.json")
        let script = """
            import json, sys, time
            json.loads(sys.stdin.readline())
            sys.stdout.write(json.dumps({"hello": {"protocol": 1, "name": "slow", "version": "1",\
             "levels": ["frames"]}}) + "\\n"); sys.stdout.flush()
            time.sleep(3600)
            """
        let impl = dir.write(Array(script.utf8), to: "slow.py")
        let o = ValidateHarnessTests.session(
            command: "exec python3 -u \(impl)", timeoutSeconds: 0.5, handshakeSeconds: 5
        ).run(paths: [v])
        #expect(o.results.map(\.status) == [.error, .error, .error, .error, .error], "\(Self.verdicts(o))")
        #expect(o.results.prefix(3).allSatisfy { $0.message == "timeout: no reply within 0.5 s" })
        #expect(
            o.results.suffix(2).allSatisfy {
                $0.message == "not run: the implementation timed out on 3 vectors in a row"
            }, "\(Self.verdicts(o))")
        #expect(o.starts == 3)
    }

    /// An implementation that closes its standard output and lives on, started through a
    /// shell that stays (not `exec`): no reply can come, so it is a crash, not a time-out.
    /// Holds INTEROP-38.
    @Test func closingStandardOutputBehindAShellIsACrash() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let command =
            Self.implementation(
                dir,
                body: """
                    if vid == "h/b-uid":
                        import os; os.close(1); time.sleep(3600)
                    good["id"] = rid; reply(good)
                    """
            ).replacingOccurrences(of: "exec ", with: "") + "; true"
        let o = Self.run(dir, command, timeout: 1)
        #expect(o.results.map(\.status) == [.pass, .error, .pass], "\(Self.verdicts(o))")
        #expect(
            o.results[1].message
                == "crashed: the implementation closed its standard output before replying (its shell still runs)")
    }

    /// `cat` echoes the handshake request: it names no implementation, so it is a failed start.
    /// Holds INTEROP-8.
    @Test func aHandshakeWithoutANameAndVersionIsAFailedStart() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(dir, "exec cat", timeout: 2)
        #expect(o.implementation == nil)
        #expect(
            o.results.first?.message.hasPrefix(
                "could not start the implementation: the handshake has no \"name\" and \"version\"") == true,
            "\(Self.verdicts(o))")
    }

    /// Holds INTEROP-21 and INTEROP-30.
    @Test func theReferenceAdapterPassesThroughTheProtocol() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        guard let tool = CommandLineTool.executable else {
            Issue.record("the tool is not built")
            return
        }
        let o = Self.run(dir, "exec \(tool) adapter")
        #expect(o.implementation?.levels == [.audio, .captures, .events, .frames])
        #expect(o.results.map(\.status) == [.pass, .pass, .pass], "\(Self.verdicts(o))")
    }

    // Coverage (INTEROP-12 to INTEROP-17: `beacons`, `advertisement`, `faults`).

    static let uidWithoutReserved =
        #"{"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77", "instance": "000000000001"}"#

    /// Holds INTEROP-12.
    @Test func fieldsAnImplementationDoesNotReportAreNotCompared() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let hello = #", "beacons": {"eddystone-uid": ["txPower", "namespace", "instance"]}"#
        let o = Self.run(
            dir,
            Self.implementation(
                dir, hello: hello,
                body: """
                    if vid == "h/b-uid": good = {"beacons": [\(Self.uidWithoutReserved)]}
                    good["id"] = rid; reply(good)
                    """))
        #expect(o.results.map(\.status) == [.pass, .pass, .pass], "\(Self.verdicts(o))")
        #expect(o.implementation?.coverage.beaconFields == ["eddystone-uid": ["txPower", "namespace", "instance"]])
    }

    /// Holds INTEROP-12.
    @Test func aWrongValueInAReportedFieldStillFails() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let hello = #", "beacons": {"eddystone-uid": ["txPower", "namespace", "instance"]}"#
        let wrong = Self.uidWithoutReserved.replacingOccurrences(of: "000000000001", with: "000000000002")
        let o = Self.run(
            dir,
            Self.implementation(
                dir, hello: hello,
                body: """
                    if vid == "h/b-uid": good = {"beacons": [\(wrong)]}
                    good["id"] = rid; reply(good)
                    """))
        #expect(o.results[1].status == .fail)
        #expect(
            o.results[1].message == #"beacons[0].instance: expected "000000000001", got "000000000002""#,
            "\(Self.verdicts(o))")
    }

    /// Holds INTEROP-13.
    @Test func aVectorOfATypeTheImplementationDoesNotDecodeIsSkipped() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(
                dir, hello: #", "beacons": {"ibeacon": ["uuid"]}"#, body: #"good["id"] = rid; reply(good)"#))
        #expect(o.results.map(\.status) == [.pass, .skipped, .pass], "\(Self.verdicts(o))")
        #expect(o.results[1].message.contains("(eddystone-uid) are of types the implementation does not decode"))
    }

    /// Holds INTEROP-16.
    @Test func withoutFaultLocationsAFaultVectorPassesOnlyWhenNothingIsDecoded() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let rejects = Self.run(
            dir,
            Self.implementation(
                dir, hello: #", "faults": False"#,
                body: """
                    if vid == "h/c-truncated": good = {"beacons": []}
                    good["id"] = rid; reply(good)
                    """))
        #expect(rejects.results[2].status == .pass, "\(Self.verdicts(rejects))")
        #expect(rejects.results[2].message.hasPrefix("rejected without a fault location"))
        let decodes = Self.run(
            dir,
            Self.implementation(
                dir, hello: #", "faults": False"#,
                body: """
                    if vid == "h/c-truncated": good = {"beacons": [\(Self.uidWithoutReserved)]}
                    good["id"] = rid; reply(good)
                    """))
        #expect(decodes.results[2].status == .fail)
        #expect(
            decodes.results[2].message == "expected ad/length-overrun at offset 3, but it decoded without a fault",
            "\(Self.verdicts(decodes))")
    }

    /// Holds INTEROP-14.
    @Test func advertisementFieldsAreComparedOnlyAsDeclared() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let vectors = #"""
            {"vectorFile": 1, "vectors": [
              {"id": "h/adv", "kind": "frame", "description": "An LE report with an Eddystone-UID advertisement.",
               "clauses": ["HCI-ADV-1"], "flags": [], "source": "hand", "verdict": "valid",
               "input": {"h4": "043e2b02010301010000eeffc01f0201060303aafe17\#
            16aafe00ee8b0ca750095477cb3e770000000000010000c4"},
               "expect": {"beacons": [{"type": "eddystone-uid", "txPower": -18, "namespace": "8b0ca750095477cb3e77",\#
             "instance": "000000000001", "reserved": "0000"}],
                          "advertisement": {"address": "c0:ff:ee:00:00:01", "rssi": -60}}}
            ]}
            """#
        let path = dir.write(Array(vectors.utf8), to: "adv.json")
        func run(_ address: String) -> VectorResult? {
            let script = """
                import json, sys
                for line in sys.stdin:
                    req = json.loads(line)
                    if "hello" in req:
                        out = {"hello": {"protocol": 1, "name": "fake", "version": "0", "levels": ["frames"],\
                 "beacons": {"eddystone-uid": ["txPower"]}, "advertisement": ["address"]}}
                    else:
                        out = {"id": req["id"], "beacons": [{"type": "eddystone-uid", "txPower": -18}],\
                 "advertisement": {"address": "\(address)"}}
                    sys.stdout.write(json.dumps(out) + "\\n"); sys.stdout.flush()
                """
            let impl = dir.write(Array(script.utf8), to: "adv.py")
            return ValidateHarnessTests.session(
                command: "exec python3 -u \(impl)", timeoutSeconds: 5, handshakeSeconds: 5
            ).run(paths: [path]).results.first
        }
        #expect(run("c0:ff:ee:00:00:01")?.status == .pass, "rssi is not declared, so not compared")
        let wrong = run("ff:ee:00:00:01:01")
        #expect(wrong?.status == .fail)
        #expect(wrong?.message == #"advertisement.address: expected "c0:ff:ee:00:00:01", got "ff:ee:00:00:01:01""#)
    }

    /// Holds INTEROP-17.
    @Test func aHandshakeWithMisshapenCoverageIsAFailedStart() {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let o = Self.run(
            dir,
            Self.implementation(dir, hello: #", "beacons": ["eddystone-uid"]"#, body: #"good["id"] = rid; reply(good)"#)
        )
        #expect(o.results.allSatisfy { $0.status == .error }, "\(Self.verdicts(o))")
        #expect(
            o.results[0].message.contains("\"beacons\" must map each beacon type to the array of fields reported"),
            "\(Self.verdicts(o))")
    }
}
