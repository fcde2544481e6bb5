import Foundation
import NearbyTestSupport
import Testing

/// `validate` leaves no process behind (INTEROP-6): a child that an implementation
/// forks, which leaves its process group with `setsid()` and keeps the reply pipe open, is
/// ended with the implementation: when the run ends, when the implementation is restarted,
/// and when `validate` gets SIGTERM. Through the built executable, which makes itself the
/// reaper of the processes it starts (Linux).
@Suite(
    .enabled(if: CommandLineTool.executable != nil && Python.has(["json"]), "needs the executable and python3"),
    .enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat"), "needs Linux's /proc"))
struct ValidateOrphanTests {
    static let vectors =
        "{\"vectorFile\": 1, \"vectors\": ["
        + ["o/1", "o/2"].map {
            "{\"id\": \"\($0)\", \"kind\": \"frame\", \"description\": \"Flags alone hold no beacon.\", "
                + "\"clauses\": [\"AD-1\"], \"flags\": [], \"source\": \"hand\", \"verdict\": \"valid\", "
                + "\"input\": {\"adData\": \"02010\($0.last!)\"}, \"expect\": {\"beacons\": []}}"
        }.joined(separator: ", ") + "]}"

    /// An implementation that answers the handshake, then runs `body` for each request (`req`,
    /// `rid`, `reply(o)` and `escape()` in scope). `escape()` forks a child that calls
    /// `os.setsid()`, writes its pid to `pidFile` and sleeps an hour holding standard output
    /// open (ignoring SIGTERM when `ignoringTerm`); the parent waits until the pid is written.
    /// The child closes every other descriptor it inherited: one may be the test process's
    /// (Foundation watches a child's exit through a socket it inherits), and a child holding it
    /// would keep this test waiting for as long as the child lives.
    static func implementation(
        _ dir: TemporaryDirectory, pidFile: String, ignoringTerm: Bool = false, body: String
    ) -> String {
        let script = """
            import json, os, signal, sys, time
            PID_FILE = \(pidFile.debugDescription)
            def reply(o):
                sys.stdout.write(json.dumps(o) + "\\n"); sys.stdout.flush()
            def escape():
                if os.fork() == 0:
                    os.setsid()
                    os.closerange(3, 65536)
                    \(ignoringTerm ? "signal.signal(signal.SIGTERM, signal.SIG_IGN)" : "pass")
                    with open(PID_FILE + ".tmp", "w") as f: f.write(str(os.getpid()))
                    os.rename(PID_FILE + ".tmp", PID_FILE)
                    time.sleep(3600)
                    os._exit(0)
                for _ in range(500):
                    if os.path.exists(PID_FILE): return
                    time.sleep(0.01)
            def alive(pid):
                try:
                    with open("/proc/%d/stat" % pid) as f: return f.read().rsplit(")", 1)[1].split()[0] != "Z"
                except OSError:
                    return False
            json.loads(sys.stdin.readline())
            reply({"hello": {"protocol": 1, "name": "escaper", "version": "1", "levels": ["frames"]}})
            for line in sys.stdin:
                req = json.loads(line); rid = req["id"]
                vid = "o/" + req["frame"]["adData"][5]  # ids are opaque: the Flags value names the vector
            \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
        return "exec python3 -u \(dir.write(Array(script.utf8), to: "escaper.py"))"
    }

    /// The pid in `file`, if it was written.
    static func pid(in file: String) -> pid_t? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0) }
    }

    /// Whether `pid` is a live process (not a zombie) whose command line holds `marker`.
    static func running(_ pid: pid_t, marker: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")"), stat[stat.index(after: close)...].split(separator: " ").first != "Z",
            let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline")
        else { return false }
        return String(decoding: cmdline, as: UTF8.self).contains(marker)
    }

    /// True when `pid` is gone within `seconds`; otherwise kills it (so that a failing test
    /// leaves nothing behind) and returns false.
    static func gone(_ pid: pid_t, marker: String, within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if !running(pid, marker: marker) { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        if running(pid, marker: marker) { kill(pid, SIGKILL) }
        return false
    }

    /// Runs `validate` over `o/1` and `o/2` against `implementation(…, body:)`, sending it
    /// `signal` once the child's pid is written, if given; expects the child to have been
    /// forked and to be gone within 5 s of `validate`'s end. Returns what `validate` did.
    static func validate(
        _ dir: TemporaryDirectory, timeout: Int, ignoringTerm: Bool = false, signal: Int32? = nil, body: String
    ) throws -> CommandLineTool.Result {
        let v = dir.write(Array(Self.vectors.utf8), to: "v.json")
        let pidFile = dir.file("orphan.pid")
        let impl = Self.implementation(dir, pidFile: pidFile, ignoringTerm: ignoringTerm, body: body)
        let run = try CommandLineTool.start(["validate", "--implementation", impl, "--timeout", "\(timeout)", v])
        if let signal {
            let deadline = Date().addingTimeInterval(20)
            while Self.pid(in: pidFile) == nil && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            run.send(signal)
        }
        let r = try run.finish(timeout: 30)
        let orphan = try #require(Self.pid(in: pidFile), "the implementation forked its child")
        #expect(Self.gone(orphan, marker: dir.path, within: 5), "the setsid child outlived validate")
        return r
    }

    /// Holds INTEROP-5 and INTEROP-6.
    @Test func aChildThatCallsSetsidIsEndedWhenTheRunEnds() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let r = try Self.validate(
            dir, timeout: 10, body: #"if vid == "o/1": escape()"# + "\n" + #"reply({"id": rid, "beacons": []})"#)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("2 vectors: 2 passed"), "\(r.stdout)")
    }

    /// The child ignores SIGTERM and the implementation exits, so the child's open pipe makes
    /// `o/1` a time-out; before `o/2` the child must be gone (killed after the grace period),
    /// which the restarted implementation checks.
    /// Holds INTEROP-6 and INTEROP-35.
    @Test func aChildThatCallsSetsidIsEndedBeforeTheImplementationRestarts() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let r = try Self.validate(
            dir, timeout: 2, ignoringTerm: true,
            body: """
                if vid == "o/1": escape(); sys.exit(3)
                orphan = int(open(PID_FILE).read())
                reply({"id": rid, "beacons": [{"type": "still-running"}] if alive(orphan) else []})
                """)
        #expect(r.stdout.contains("ERROR o/1"), "\(r.stdout)")
        #expect(!r.stdout.contains("o/2"), "o/2 passed only when the child was gone: \(r.stdout)")
        #expect(r.stdout.contains("2 vectors: 1 passed, 0 failed, 1 errors"), "\(r.stdout)")
    }

    /// SIGTERM to `validate` while the implementation hangs: it exits with 128 + 15 and ends
    /// the child too.
    /// Holds INTEROP-6 and INTEROP-43.
    @Test func aChildThatCallsSetsidIsEndedWhenValidateIsTerminated() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let r = try Self.validate(dir, timeout: 60, signal: SIGTERM, body: "escape(); time.sleep(3600)")
        #expect(r.status == 128 + SIGTERM, "\(r.stdout)\(r.stderr)")
    }
}
