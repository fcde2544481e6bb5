import NearbyInterop
import NearbyRunner
import NearbyTestSupport
import Testing

/// What the command line does as a careful user expects (issue 25), through the built
/// executable.
@Suite(.enabled(if: CommandLineTool.executable != nil, "the nearby-conformance executable is not built"))
struct CommandLineTests {
    /// `--version` prints the version the interop handshake reports for the reference
    /// (INTEROP-30), and exits 0.
    @Test func versionPrintsTheReferenceVersion() throws {
        let r = try CommandLineTool.run(["--version"])
        #expect(r.status == 0)
        #expect(r.stdoutLines == [ReferenceAdapter.version])
    }

    /// `check` without paths where there is no Vectors/ has no vectors to run: a usage error
    /// (README: "64 for usage errors"), said before anything runs, with where Vectors/ was
    /// looked for and how to name vectors instead.
    @Test func checkOutsideTheRepositoryIsAUsageError() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let r = try CommandLineTool.run(["check"], in: dir.path)
        #expect(r.status == 64)
        #expect(
            r.stderr.contains("no Vectors/ directory here (\(dir.path)/Vectors)")
                && r.stderr.contains("name vector files or directories"),
            "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// Named vectors run from anywhere: only the missing default is a usage error.
    @Test func checkOutsideTheRepositoryRunsTheVectorsNamed() throws {
        let dir = TemporaryDirectory()
        defer { dir.remove() }
        let r = try CommandLineTool.run(
            ["check", RepositoryPaths.root + "/Vectors/scenarios/limits.json"], in: dir.path)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains(" passed, 0 failed, 0 errors, 0 skipped"), "\(r.stdout)")
    }

    /// `--format` takes one value: given twice it is a usage error naming the option, for
    /// every command that has it, not the last value taken silently.
    @Test(arguments: [
        ["decode", "--format", "table", "--format", "json", "x.pcap"],
        ["decode", "--format=json", "--format", "json", "x.pcap"],
        ["replay", "--scenario", "s.json", "--format", "table", "--format", "json"],
    ])
    func aRepeatedFormatIsAUsageError(arguments: [String]) throws {
        let r = try CommandLineTool.run(arguments)
        #expect(r.status == 64, "\(r.stderr)")
        #expect(r.stderr.contains("--format takes one value; it was given 2 times"), "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// A negative number is the option's value, refused with the range it may take (a usage
    /// error, 64), not "Missing value" as if it were another option.
    @Test(arguments: [
        (["check", "--jobs", "-1"], "--jobs must be at least 1"),
        (["decode", "--jobs", "-1", "x.pcap"], "--jobs must be at least 1"),
        (["audio", "evaluate", "--jobs", "-2"], "--jobs must be at least 1"),
        (
            ["eid", "compute", "--identity-key", "00112233445566778899aabbccddeeff", "--exponent", "-1"],
            "a rotation exponent is 0…15, found -1"
        ),
    ])
    func aNegativeValueIsRefusedWithItsRange(arguments: [String], message: String) throws {
        let r = try CommandLineTool.run(arguments)
        #expect(r.status == 64)
        #expect(r.stderr.contains(message), "\(r.stderr)")
    }

    /// `--registry` pairs eTLM frames with earlier EID frames across files, which files
    /// decoded at once would change: the two together are a usage error that says so.
    @Test func decodeRefusesJobsWithARegistry() throws {
        let r = try CommandLineTool.run(["decode", "--jobs", "2", "--registry", "r.json", "x.pcap"])
        #expect(r.status == 64)
        #expect(r.stderr.contains("it decodes one file at a time"), "\(r.stderr)")
    }
}
