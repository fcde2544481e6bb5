import Foundation
import NearbyRunner
import NearbyTestSupport
import Testing

/// Text reports never pass an implementation's control characters to the terminal.
@Suite struct ReportEscapingTests {
    @Test func controlCharactersAreShownAsEscapes() {
        #expect(TerminalText.escaped("plain\ttext") == "plain\ttext")
        #expect(TerminalText.escaped("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.escaped("nul\u{0}\nline\u{7F}\u{9B}") == "nul\\u{0}\\u{A}line\\u{7F}\\u{9B}")
        // A `\u{` already in the text cannot pass for an escape.
        #expect(TerminalText.escaped("\\u{1B}") == "\\\\u{1B}")
    }

    /// `validate` against an implementation whose handshake name and replies carry ANSI
    /// escapes and a NUL: standard output holds none of them, only their escapes.
    @Test(.enabled(if: CommandLineTool.executable != nil && Python.has(["json"]), "needs the executable and python3"))
    func validatePrintsAnImplementationsControlCharactersEscaped() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let vectors =
            #"{"vectorFile": 1, "vectors": [{"id": "e/empty", "kind": "frame", "description": "An empty AD holds no "#
            + #"beacon.", "clauses": ["AD-1"], "flags": [], "source": "hand", "verdict": "valid", "input": {"adData": ""}, "#
            + #""expect": {"beacons": []}}]}"#
        let v = dir.write(Array(vectors.utf8), to: "v.json")
        let script = """
            import json, sys
            def reply(o):
                sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
            json.loads(sys.stdin.readline())
            reply({"hello": {"protocol": 1, "name": "evil\\u001b[31m", "version": "0\\u0000", "levels": ["frames"]}})
            for line in sys.stdin:
                req = json.loads(line)
                reply({"id": req["id"], "beacons": [{"type": "ibeacon\\u001b[2J\\u0000"}]})
            """
        let impl = dir.write(Array(script.utf8), to: "impl.py")
        let r = try CommandLineTool.run(["validate", "--implementation", "exec python3 -u \(impl)", v])
        #expect(r.status == 1, "the reply is wrong: \(r.stderr)")
        #expect(
            !r.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" },
            "\(r.stdout.debugDescription)")
        #expect(r.stdout.contains("evil\\u{1B}[31m 0\\u{0}"), "\(r.stdout)")
        // Values in the divergence are JSON, escaped as JSON escapes them.
        #expect(r.stdout.contains(#"[{"type":"ibeacon\u001b[2J\u0000"}]"#), "\(r.stdout)")
    }
}
