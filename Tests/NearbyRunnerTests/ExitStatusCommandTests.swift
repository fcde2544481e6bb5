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
        let allowed = try CommandLineTool.run(["check", "--filter", "no-vector-has-this-id", "--allow-empty"], in: RepositoryPaths.root)
        #expect(allowed.status == 0, "\(allowed.stderr)")
    }

    @Test func validateExits5WhenNoVectorRan() throws {
        let exe = try #require(CommandLineTool.executable)
        let r = try CommandLineTool.run(["validate", "--implementation", "'\(exe)' adapter", "--filter", "no-vector-has-this-id"],
                                        in: RepositoryPaths.root)
        #expect(r.status == 5, "\(r.stderr)")
    }

    /// A report path that cannot be written is refused before any vector runs: no report
    /// text on standard output, status 64, the reason named.
    @Test func anUnwritableReportPathIsRefusedBeforeAnyWork() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        for (flag, path, reason) in [("--json", dir.file("missing/r.json"), "the folder \(dir.file("missing")) does not exist"),
                                     ("--junit", dir.path, "\(dir.path) is a folder")] {
            let r = try CommandLineTool.run(["check", flag, path], in: RepositoryPaths.root)
            #expect(r.status == 64)
            #expect(r.stdout.isEmpty, "no vector ran")
            #expect(r.stderr.contains("\(flag): \(reason)"), "\(r.stderr)")
        }
    }

    @Test func synthesizeIntoAFileIsAUsageError() throws {
        let dir = TemporaryDirectory(); defer { dir.remove() }
        let file = dir.write([0x41], to: "not-a-folder")
        let r = try CommandLineTool.run(["synthesize", "-o", file, RepositoryPaths.root + "/Captures/synthetic/crowded.scenario.json"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("--output: \(file) exists and is not a folder") && !r.stderr.contains("NSCocoaErrorDomain"), "\(r.stderr)")
    }
}
