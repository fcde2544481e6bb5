import Foundation
import NearbyTestSupport
import Testing

/// Exit statuses as CI reads them (pytest's convention: 5 when nothing ran; 64 for usage),
/// through the built executable.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct ExitStatusCommandTests {
    @Test func checkExits5WhenNoVectorRanUnlessAllowed() throws {
        let none = try CommandLineTool.run(["check", "--filter", "no-vector-has-this-id"], in: RepositoryPaths.root)
        #expect(none.status == 5)
        #expect(none.stderr.contains("error: no vector ran (0 skipped); --allow-empty accepts that"), "\(none.stderr)")
        let allowed = try CommandLineTool.run(
            ["check", "--filter", "no-vector-has-this-id", "--allow-empty"], in: RepositoryPaths.root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test func validateExits5WhenNoVectorRan() throws {
        let exe = try #require(CommandLineTool.executable)
        let r = try CommandLineTool.run(
            ["validate", "--implementation", "'\(exe)' adapter", "--filter", "no-vector-has-this-id"],
            in: RepositoryPaths.root)
        #expect(r.status == 5, "\(r.stderr)")
    }

    /// A report path that cannot be written is refused before any vector runs: no report
    /// text on standard output, status 64, the reason named.
    @Test func anUnwritableReportPathIsRefusedBeforeAnyWork() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        for (flag, path, reason) in [
            ("--json", dir.file("missing/r.json"), "the folder \(dir.file("missing")) does not exist"),
            ("--junit", dir.path, "\(dir.path) is a folder"),
        ] {
            let r = try CommandLineTool.run(["check", flag, path], in: RepositoryPaths.root)
            #expect(r.status == 64)
            #expect(r.stdout.isEmpty, "no vector ran")
            #expect(r.stderr.contains("\(flag): \(reason)"), "\(r.stderr)")
        }
    }

    @Test func synthesizeIntoAFileIsAUsageError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let file = dir.write([0x41], to: "not-a-folder")
        let r = try CommandLineTool.run([
            "synthesize", "-o", file, RepositoryPaths.root + "/Captures/synthetic/crowded.scenario.json",
        ])
        #expect(r.status == 64)
        #expect(
            r.stderr.contains("--output: \(file) exists and is not a folder")
                && !r.stderr.contains("NSCocoaErrorDomain"), "\(r.stderr)")
    }

    /// SIGINT to `validate` ends the implementation's whole process group (here a shell and
    /// the python3 it runs, hanging on the first vector) and exits 130, as a shell reports
    /// an interrupted command.
    @Test(.enabled(if: Python.has(["json"]), "python3 is not installed"))
    func anInterruptedValidateLeavesNoImplementationRunning() throws {
        let exe = try #require(CommandLineTool.executable)
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let pidFile = dir.file("pid")
        let script = """
            import json, os, sys, time
            open(\"\(pidFile)\", "w").write(str(os.getpid()))
            json.loads(sys.stdin.readline())
            sys.stdout.write(json.dumps({"hello": {"protocol": 1, "name": "hang", "version": "1",\
             "levels": ["frames"]}}) + "\\n"); sys.stdout.flush()
            time.sleep(3600)
            """
        let impl = dir.write(Array(script.utf8), to: "hang.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: exe)
        // Not `exec`: the shell stays, so the group holds two processes.
        process.arguments = [
            "validate", "--implementation", "python3 -u \(impl); true", "--filter", "eddystone/uid", "--timeout", "600",
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: RepositoryPaths.root)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var pid: pid_t = 0
        for _ in 0..<200 where pid == 0 {
            usleep(50_000)
            pid = (try? String(contentsOfFile: pidFile, encoding: .utf8)).flatMap { pid_t($0) } ?? 0
        }
        #expect(pid > 0, "the implementation started")
        usleep(300_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130)
        // Ended means no such process, or a zombie waiting for whoever adopted it to reap it
        // (a loaded machine's init can take seconds; a zombie runs nothing).
        func ended() -> Bool {
            guard kill(pid, 0) == 0 else { return true }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
        }
        var gone = false
        for _ in 0..<200 where !gone {
            gone = ended()
            if !gone { usleep(50_000) }
        }
        #expect(gone, "the implementation (pid \(pid)) was ended with validate")
    }
}
