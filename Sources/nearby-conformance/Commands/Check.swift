import ArgumentParser
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

    @OptionGroup var selection: VectorSelection

    @OptionGroup var threads: JobsOption

    @OptionGroup var reports: ReportOptions

    func run() throws {
        if selection.paths.isEmpty {
            var st = stat()
            guard stat("Vectors", &st) == 0, st.st_mode & S_IFMT == S_IFDIR else {
                printError(
                    """
                    error: no Vectors/ directory here (\(ProcessPaths.absolute("Vectors"))): run check from the \
                    repository's root, or name vector files or directories (nearby-conformance check PATH…)
                    """)
                throw ExitCode(ExitStatus.failure)
            }
        }
        let started = CheckReport.timestampNow()
        let session = CheckSession(filter: selection.filter, shard: selection.parsedShard, jobs: threads.jobs)
        let progress = ProgressLine()
        var onProgress: (@Sendable (Int, Int, String) -> Void)?
        if progress.shown { onProgress = { done, total, id in progress.show("[\(done)/\(total)] \(id)") } }
        let results = session.run(paths: selection.pathsOrDefault, progress: onProgress)
        progress.clear()
        FileDescriptorOutput.write(CheckReport.text(results), fd: 1)
        try reports.write(results, started: started)
        try reports.finish(results)
    }
}
