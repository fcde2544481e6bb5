import ArgumentParser
import NearbyDecode
import NearbyRunner

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run conformance vectors through the reference decoder and engine and report.",
        discussion: """
            Every vector under the given paths (default Vectors/) runs: frames and captures through \
            the decoder, scenarios through the subscription engine. Failures show the first \
            divergence in context. Exit status 0 when every selected vector passes (skipped ones \
            excepted); 1 when one fails or errs; 5 when no vector ran (none selected, or all \
            skipped) unless --allow-empty; 64 for usage errors, among them report paths that cannot \
            be written and no PATH named where there is no Vectors/ (both checked before any \
            vector runs). Vector format: Vectors/README.md.
            """)

    @OptionGroup var selection: VectorSelection

    @OptionGroup var threads: JobsOption

    @OptionGroup var reports: ReportOptions

    @Option(
        help: ArgumentHelp(
            "The reference's known failures, reported as skipped while they fail (default: "
                + "Vectors/known-failures.json when there is one).", valueName: "FILE"))
    var knownFailures: String?

    func run() throws {
        let started = CheckReport.timestampNow()
        var known = KnownFailures()
        let listPath = knownFailures ?? "Vectors/" + KnownFailures.fileName
        if knownFailures != nil || FileTree.isRegularFile(listPath) {
            do {
                known = try KnownFailures.load(listPath)
            } catch {
                throw ValidationError("\(error)")
            }
        }
        let session = CheckSession(
            filter: selection.filter, shard: selection.parsedShard, jobs: threads.jobs, knownFailures: known)
        let progress = ProgressLine()
        var onProgress: (@Sendable (Int, Int, String) -> Void)?
        if progress.shown { onProgress = { done, total, id in progress.show("[\(done)/\(total)] \(id)") } }
        let generation = try selection.generate()
        defer { generation?.finish() }
        let results = session.run(
            paths: selection.pathsOrDefault + (generation.map { [$0.file] } ?? []), progress: onProgress)
        progress.clear()
        if let generation { FileDescriptorOutput.write(generation.line, fd: 1) }
        FileDescriptorOutput.write(CheckReport.text(results), fd: 1)
        try reports.write(results, started: started)
        try reports.finish(results)
    }
}
