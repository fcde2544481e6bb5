import Foundation
import NearbyTestSupport
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

/// `validate` and the reports of `check` and `validate`, through the built executable.
@Suite(.enabled(if: CommandLineTool.executable != nil && Python.has(["json"]), "needs the executable and python3"))
struct ValidateCommandTests {
    static let vectors =
        #"{"vectorFile": 1, "vectors": [{"id": "c/empty", "kind": "frame", "description": "An empty AD holds no "#
        + #"beacon.", "clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid", "input": {"adData": ""}, "#
        + #""expect": {"beacons": []}}]}"#

    /// A reply of 80 MiB without a newline is over the 64 MiB cap (INTEROP-33):
    /// a malformed reply, found long before the 60 s time-out; exit status 1.
    /// Holds INTEROP-33 and INTEROP-44.
    @Test func aReplyOverTheCapIsMalformedThroughTheExecutable() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let v = dir.write(Array(Self.vectors.utf8), to: "v.json")
        let script = """
            import json, sys, time
            json.loads(sys.stdin.readline())
            sys.stdout.write(json.dumps({"hello": {"protocol": 1, "name": "flood", "version": "1",\
             "levels": ["frames"]}}) + "\\n"); sys.stdout.flush()
            sys.stdin.readline()
            block = "x" * (1 << 20)
            for _ in range(80): sys.stdout.write(block)
            sys.stdout.flush(); time.sleep(3600)
            """
        let impl = dir.write(Array(script.utf8), to: "flood.py")
        let start = ContinuousClock.now
        let r = try CommandLineTool.run([
            "validate", "--implementation", "exec python3 -u \(impl)", "--timeout", "60", v,
        ])
        #expect(r.status == 1)
        #expect(r.stdout.contains("malformed reply: a line longer than 67108864 bytes"), "\(r.stdout)")
        #expect(ContinuousClock.now - start < .seconds(40))
    }

    /// `cat` echoes the handshake request, naming nothing: three failed starts, exit 1.
    /// Holds INTEROP-8, INTEROP-40 and INTEROP-44.
    @Test func catIsNotAnImplementation() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let v = dir.write(Array(Self.vectors.utf8), to: "v.json")
        let r = try CommandLineTool.run(["validate", "--implementation", "cat", "--handshake-timeout", "2", v])
        #expect(r.status == 1)
        #expect(
            r.stdout.contains(#"could not start the implementation: the handshake has no "name" and "version""#),
            "\(r.stdout)")
    }

    /// The JUnit report of `check` has `file` and `time` on each test case and the run's
    /// `timestamp` (junit-10.xsd: xs:dateTime without a zone); `validate`'s names the
    /// implementation in properties and in its JSON report.
    /// Holds INTEROP-8, INTEROP-44 and INTEROP-45.
    @Test func reportsCarryTimesFilesAndTheImplementation() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let v = dir.write(Array(Self.vectors.utf8), to: "v.json")
        let junit = dir.file("check.xml")
        let check = try CommandLineTool.run(["check", "--junit", junit, v])
        #expect(check.status == 0, "\(check.stdout)")
        let doc = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: junit)))
        let root = try #require(doc.rootElement())
        let stamp = root.attribute(forName: "timestamp")?.stringValue ?? ""
        #expect(
            stamp.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) != nil, "\(stamp)")
        let testcase = try #require(root.elements(forName: "testsuite").first?.elements(forName: "testcase").first)
        #expect(testcase.attribute(forName: "file")?.stringValue == v)
        #expect(
            testcase.attribute(forName: "time")?.stringValue?.range(of: #"^\d+\.\d{3}$"#, options: .regularExpression)
                != nil)

        let exe = try #require(CommandLineTool.executable)
        let command = "'\(exe)' adapter"
        let vjunit = dir.file("validate.xml"), vjson = dir.file("validate.json")
        let validate = try CommandLineTool.run([
            "validate", "--implementation", command, "--junit", vjunit, "--json", vjson, v,
        ])
        #expect(validate.status == 0, "\(validate.stdout)")
        let vdoc = try XMLDocument(data: Data(contentsOf: URL(fileURLWithPath: vjunit)))
        let properties =
            vdoc.rootElement()?.elements(forName: "testsuite").first?.elements(forName: "properties").first?.elements(
                forName: "property") ?? []
        let byName = Dictionary(
            uniqueKeysWithValues: properties.map {
                ($0.attribute(forName: "name")?.stringValue ?? "", $0.attribute(forName: "value")?.stringValue ?? "")
            })
        #expect(byName["implementation.name"] == "nearby-conformance reference")
        #expect(byName["implementation.version"] == "unreleased")
        #expect(byName["implementation.command"] == command)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: vjson))) as? [String: Any])
        #expect(
            json["implementation"] as? [String: String] == [
                "name": "nearby-conformance reference", "version": "unreleased", "command": command,
            ])
    }
}
