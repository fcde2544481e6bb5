import ArgumentParser
import NearbyCapture
import NearbyRunner
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run conformance vectors through the reference decoder and engine and report.",
        discussion: """
        Every vector under the given paths (default Vectors/) runs: frames and captures through \
        the decoder, scenarios through the subscription engine. Failures show the first \
        divergence in context. Exit status 0 when every selected vector passes (skipped ones \
        excepted); 1 when one fails or errs; 5 when no vector ran (none selected, or all \
        skipped) unless --allow-empty; 64 for usage errors, report paths that cannot be \
        written among them (checked before any vector runs). Vector format: Vectors/README.md.
        """)

    @Argument(help: "Vector files or directories (default: Vectors).")
    var paths: [String] = []

    @Option(help: "Run only vectors whose id contains this text.")
    var filter: String?

    // A negative value is read as the value (then refused with the allowed range), not as an option.
    @Option(parsing: .unconditional, help: "Worker threads, at least 1 (results are the same for any value).")
    var jobs: Int = 1

    @Option(help: "Run shard K of N (K/N, 1-based): the i-th vector in id order belongs to shard i mod N + 1.")
    var shard: String?

    @Option(help: "Write the JSON report to this file.")
    var json: String?

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @Flag(help: "Exit 0 even when no vector ran (a filter or shard that selects none, every vector skipped).")
    var allowEmpty = false

    /// Exit status when no vector ran (pytest's "no tests collected").
    static let nothingRanStatus: Int32 = 5

    func validate() throws {
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let shard, CheckSession.parseShard(shard) == nil { throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N") }
        if let json, let problem = OutputPath.problemWritingFile(json) { throw ValidationError("--json: \(problem)") }
        if let junit, let problem = OutputPath.problemWritingFile(junit) { throw ValidationError("--junit: \(problem)") }
    }

    func run() throws {
        if paths.isEmpty {
            var st = stat()
            guard stat("Vectors", &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                FileDescriptorOutput.write("error: no Vectors/ directory here (\(Matrix.absolute("Vectors"))): run check from the repository's root, or name vector files or directories (nearby-conformance check PATH…)\n", fd: 2)
                throw ExitCode(1)
            }
        }
        let started = CheckReport.timestampNow()
        let session = CheckSession(filter: filter, shard: shard.flatMap(CheckSession.parseShard), jobs: jobs)
        let terminal = isatty(2) != 0
        var progress: (@Sendable (Int, Int, String) -> Void)?
        if terminal {
            progress = { @Sendable done, total, id in FileDescriptorOutput.write("\r\u{1B}[K[\(done)/\(total)] \(id)", fd: 2) }
        }
        let results = session.run(paths: paths.isEmpty ? ["Vectors"] : paths, progress: progress)
        if terminal { FileDescriptorOutput.write("\r\u{1B}[K", fd: 2) }
        FileDescriptorOutput.write(CheckReport.text(results), fd: 1)
        if let json { try writeFile(json, CheckReport.json(results)) }
        if let junit { try writeFile(junit, CheckReport.junit(results, timestamp: started)) }
        let counts = CheckReport.Counts(results)
        if !counts.allPassed { throw ExitCode(1) }
        if counts.pass == 0 && !allowEmpty {
            FileDescriptorOutput.write("error: no vector ran (\(counts.skipped) skipped); --allow-empty accepts that\n", fd: 2)
            throw ExitCode(Self.nothingRanStatus)
        }
    }

    func writeFile(_ path: String, _ text: String) throws {
        do {
            try OutputFile.write(Array(text.utf8), to: path)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
