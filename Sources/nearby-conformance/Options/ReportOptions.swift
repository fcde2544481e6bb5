import ArgumentParser
import NearbyBytes
import NearbyRunner
import NearbySystem

/// The reports a vector run writes and what an empty run means: `check` and `validate`.
struct ReportOptions: ParsableArguments {
    @Option(help: "Write the JSON report to this file.")
    var json: String?

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @Flag(help: "Exit 0 even when no vector ran (a selection that selects none, every vector skipped).")
    var allowEmpty = false

    /// Refuses, before any vector runs, a report path that cannot be written.
    func validate() throws {
        if let json, let problem = OutputPath.problemWritingFile(json) { throw ValidationError("--json: \(problem)") }
        if let junit, let problem = OutputPath.problemWritingFile(junit) {
            throw ValidationError("--junit: \(problem)")
        }
    }

    /// Writes the reports asked for (`started`: the JUnit timestamp, when known); a write that
    /// fails is a usage error (exit 64) naming the file.
    func write(_ results: [VectorResult], started: String?, implementation: CheckReport.Subject? = nil) throws {
        if let json { try Self.write(CheckReport.json(results, implementation: implementation), to: json) }
        if let junit {
            try Self.write(CheckReport.junit(results, timestamp: started, implementation: implementation), to: junit)
        }
    }

    /// Ends the run with the exit status its results call for: 1 when a vector failed or
    /// erred, `ExitStatus.nothingRan` when none passed (unless `--allow-empty`).
    func finish(_ results: [VectorResult], failed: Bool = false) throws {
        let counts = CheckReport.Counts(results)
        if !counts.allPassed || failed { throw ExitCode(ExitStatus.failure) }
        if counts.pass == 0 && !allowEmpty {
            FileDescriptorOutput.write(
                "error: no vector ran (\(counts.skipped) skipped); --allow-empty accepts that\n", fd: 2)
            throw ExitCode(ExitStatus.nothingRan)
        }
    }

    static func write(_ text: String, to path: String) throws {
        do {
            try OutputFile.write(Array(text.utf8), to: path)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
