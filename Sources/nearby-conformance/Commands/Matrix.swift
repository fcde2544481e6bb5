import ArgumentParser
import NearbyBytes
import NearbyCapture
import NearbyInterop
import NearbyJSON
import NearbyRunner

struct Matrix: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Run every implementation of Interop/implementations.json through validate and write "
            + "docs/conformance-matrix.md.",
        discussion: """
            Run from the repository root after Interop/install. Each implementation (the reference \
            adapter and the third-party adapters in Interop/adapters/) is validated against the \
            vectors in Vectors/ that the repository holds; the page lists, per implementation, the \
            passes per level, what it reports, and the one-line reason for each vector it fails. \
            With --check nothing is written: the exit status is 1 when the page differs from what \
            the implementations answer now.
            """)

    @Option(help: "The list of implementations.")
    var implementations = "Interop/implementations.json"

    @Option(help: "The page to write (or compare with --check).")
    var output = "docs/conformance-matrix.md"

    @Option(help: "Vector files or directories.")
    var vectors = "Vectors"

    @Flag(help: "Compare with the page instead of writing it; exit 1 when it is out of date.")
    var check = false

    @Option(help: "Seconds allowed for each reply.")
    var timeout: Double = 60

    func run() throws {
        let list: ConformanceMatrix.List
        do {
            list = try ConformanceMatrix.list(file: implementations)
        } catch {
            throw ValidationError(error.description)
        }
        // The list lives in Interop/: its commands run from the folder above.
        let root = ProcessPaths.absolute(implementations).split(separator: "/", omittingEmptySubsequences: false)
            .dropLast(2).joined(separator: "/")
        ProcessSettings.ignoreBrokenPipes()
        let progress = ProgressLine()
        let matrix = ConformanceMatrix.run(
            list, root: root, tool: ProcessPaths.executable(), vectorPaths: [vectors], timeoutSeconds: timeout,
            progress: progress.shown ? { command, done, total in progress.show("\(command): [\(done)/\(total)]") } : nil
        )
        progress.clear()
        let page = matrix.markdown()
        for row in matrix.rows {
            let r = row.outcome.results
            let count = { (s: VectorResult.Status) in r.filter { $0.status == s }.count }
            FileDescriptorOutput.write(
                "\(row.outcome.implementation?.name ?? row.entry.command): \(count(.pass)) passed, \(count(.fail)) "
                    + "failed, \(count(.error)) errors, \(count(.skipped)) skipped\n",
                fd: 1)
        }
        guard try GeneratedPage.writeOrCheck(page, to: output, check: check, command: "matrix") else {
            throw ExitCode(ExitStatus.failure)
        }
        if check { FileDescriptorOutput.write("\(output) is up to date\n", fd: 1) }
    }
}
