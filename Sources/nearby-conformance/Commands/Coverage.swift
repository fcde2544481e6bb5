import ArgumentParser
import NearbyJSON
import NearbyRunner

struct Coverage: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every clause of the specification with the vectors that test it; write docs/coverage.md.",
        discussion: """
            Run from the repository root. Reads the clauses of docs/spec/ (docs/spec/README.md says \
            how they are written), the vectors of Vectors/ and the flag registry, and writes the \
            clause × vector table. A clause marked "held by tests" is held by the test files under \
            Tests/ that cite its id. Exit status 1 when a clause is held by nothing, a vector cites a \
            clause or a flag that does not exist, a clause has no source, or a vector cannot be read \
            (each problem is printed); with --check, also when the page differs from what it would be.
            """)

    @Option(help: "The folder of specification pages.")
    var spec = "docs/spec"

    @Option(help: "Vector files or directories.")
    var vectors = "Vectors"

    @Option(help: "The flag registry.")
    var flags = "Vectors/schema/flags.json"

    @Option(help: "The folder of tests that hold the clauses marked \"held by tests\".")
    var tests = "Tests"

    @Option(help: "The page to write (or compare with --check); - for standard output.")
    var output = "docs/coverage.md"

    @Flag(help: "Compare with the page instead of writing it; exit 1 when it is out of date.")
    var check = false

    func run() throws {
        let coverage = ClauseCoverage.load(specification: spec, vectors: [vectors], flags: flags, tests: tests)
        let page = coverage.markdown()
        var failed = !coverage.problems.isEmpty
        for p in coverage.problems { FileDescriptorOutput.write(p + "\n", fd: 2) }
        let held = coverage.rows.filter(\.isHeld).count
        FileDescriptorOutput.write(
            "\(coverage.rows.count) clauses, \(coverage.vectorCount) vectors: \(held) clauses held, "
                + "\(coverage.rows.count - held) not; \(coverage.problems.count) problems\n",
            fd: 1)
        if try !GeneratedPage.writeOrCheck(page, to: output, check: check, command: "coverage") { failed = true }
        if failed { throw ExitCode(ExitStatus.failure) }
    }
}
