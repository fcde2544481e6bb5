import NearbyRunner
import NearbyTestSupport
import Testing

/// What the command line does as a careful user expects (issue 25), through the built
/// executable.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct CommandLineTests {
    /// `--version` prints the version the interop handshake reports for the reference
    /// (docs/interop.md §4), and exits 0.
    @Test func versionPrintsTheReferenceVersion() throws {
        let r = try CommandLineTool.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdoutLines == [ReferenceAdapter.version])
    }
}
