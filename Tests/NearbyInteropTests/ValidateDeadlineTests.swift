import Foundation
import NearbyTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `validate --deadline` bounds a whole run (INTEROP-42): against an implementation
/// that times out on every other vector, which three time-outs in a row never stop, the run
/// ends by the deadline plus one vector's time-out; the vectors left are `not run: deadline`
/// in the text, JSON and JUnit reports, and the exit status (2) says the run is incomplete.
@Suite(.enabled(if: CommandLineTool.executable != nil && Python.has(["json"]), "needs the executable and python3"))
struct ValidateDeadlineTests {
    /// 30 frame vectors `d/01` … `d/30`, each a Flags AD whose value is its number (so an
    /// implementation, which sees opaque request ids, knows it by its input) and no beacon.
    static let vectors =
        "{\"vectorFile\": 1, \"vectors\": ["
        + (1...30).map {
            "{\"id\": \"d/\($0 < 10 ? "0" : "")\($0)\", \"kind\": \"frame\", \"description\": \"Flags alone hold "
                + "no beacon.\", \"clauses\": [\"AD-1\"], \"flags\": [], \"source\": \"hand\", \"verdict\": \"valid\", "
                + "\"input\": {\"adData\": \"0201\(String(format: "%02x", $0))\"}, \"expect\": {\"beacons\": []}}"
        }.joined(separator: ", ") + "]}"

    /// Answers the odd vectors right away and never answers the even ones.
    static let alternating = """
        import json, sys, time
        def reply(o):
            sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
        json.loads(sys.stdin.readline())
        reply({"hello": {"protocol": 1, "name": "alternating", "version": "1", "levels": ["frames"]}})
        for line in sys.stdin:
            req = json.loads(line); rid = req["id"]
            if int(req["frame"]["adData"][4:6], 16) % 2 == 0: time.sleep(3600)
            reply({"id": rid, "beacons": []})
        """

    /// Holds INTEROP-4, INTEROP-42 and INTEROP-44.
    @Test func aRunThatTimesOutOnEveryOtherVectorEndsAtItsDeadline() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let v = dir.write(Array(Self.vectors.utf8), to: "v.json")
        let impl = dir.write(Array(Self.alternating.utf8), to: "alternating.py")
        let json = dir.file("report.json"), junit = dir.file("report.xml")
        let timeout = 3.0, deadline = 20.0
        let start = ContinuousClock.now
        let r = try CommandLineTool.start([
            "validate", "--implementation", "exec python3 -u \(impl)", "--timeout", "\(timeout)",
            "--deadline", "\(deadline)", "--json", json, "--junit", junit, v,
        ]).finish(timeout: 60)
        let took = ContinuousClock.now - start
        #expect(took < .seconds(deadline + timeout), "took \(took)")
        #expect(took >= .seconds(deadline), "30 vectors, 15 of them time-outs, cannot all run in \(deadline) s")
        #expect(r.status == 2, "\(r.stdout)\(r.stderr)")

        // Text: the vectors left are skipped, not run; none of those run was given up on.
        let notRun = r.stdoutLines.filter { $0.hasPrefix("SKIP ") && $0.hasSuffix(": not run: deadline") }
        #expect(!notRun.isEmpty && notRun.last == "SKIP d/30: not run: deadline", "\(r.stdout)")
        #expect(r.stdout.contains("ERROR d/02"), "\(r.stdout)")
        #expect(!r.stdout.contains("in a row"), "time-outs alternating with passes are never three in a row")
        #expect(r.stderr.contains("deadline"), "\(r.stderr)")

        // JSON: the same verdicts, the ones not run a suffix of the vectors in id order.
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        let vectors = try #require(report["vectors"] as? [[String: Any]])
        #expect(vectors.count == 30)
        let left = vectors.filter { $0["message"] as? String == "not run: deadline" }
        #expect(left.count == notRun.count)
        #expect(left.allSatisfy { $0["status"] as? String == "skipped" })
        #expect(vectors.suffix(left.count).map { $0["id"] as? String } == left.map { $0["id"] as? String })
        #expect(vectors.first?["status"] as? String == "pass")

        // JUnit: each one not run is a skipped test case saying so.
        let doc = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)))
        let cases = doc.rootElement()?.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") } ?? []
        let skipped = cases.filter {
            $0.elements(forName: "skipped").first?.attribute(forName: "message")?.stringValue == "not run: deadline"
        }
        #expect(skipped.count == left.count)
        #expect(skipped.last?.attribute(forName: "name")?.stringValue == "d/30")
    }

    /// With no deadline near, the time-outs of the same implementation still end the run: the
    /// vectors that ended it may take 10 time-outs in all (INTEROP-41), so 10 of
    /// 0.5 s, and the rest are not run.
    /// Holds INTEROP-41 and INTEROP-44.
    @Test func timeOutsBetweenPassesAreBoundedByTheFaultBudget() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let v = dir.write(Array(Self.vectors.utf8), to: "v.json")
        let impl = dir.write(Array(Self.alternating.utf8), to: "alternating.py")
        let start = ContinuousClock.now
        let r = try CommandLineTool.start([
            "validate", "--implementation", "exec python3 -u \(impl)", "--timeout", "0.5", v,
        ]).finish(timeout: 60)
        #expect(ContinuousClock.now - start < .seconds(40), "10 time-outs of 0.5 s, 20 passes and the restarts")
        #expect(r.status == 1, "\(r.stdout)\(r.stderr)")
        let timeouts = r.stdout.components(separatedBy: "timeout: no reply within 0.5 s").count - 1
        #expect(timeouts >= 1 && timeouts <= 10, "\(r.stdout)")
        let given = r.stdout.components(separatedBy: "not run: time-outs, crashes and bad replies").count - 1
        #expect(given >= 30 - 2 * 10, "\(r.stdout)")
        #expect(r.stdout.contains("ERROR d/30"), "\(r.stdout)")
    }
}
