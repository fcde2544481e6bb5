import ArgumentParser
import NearbyRunner

struct MergeReports: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge-reports",
        abstract: "Merge the JSON reports of check or validate shards into the reports of one run.",
        discussion: """
            Reads the reports that `check --shard K/N --json FILE` (or validate) wrote, one per shard, and \
            writes what one run over all the vectors would: the text report on standard output, and the JSON \
            and JUnit reports asked for (the JSON report is that run's byte for byte; JUnit has no times, \
            which the JSON reports do not carry). Exit status as check's: 0 when every vector passed, 1 when \
            one failed or erred or the reports cannot be merged (a report unreadable, a vector in two \
            reports, reports about different implementations), 5 when no vector ran unless --allow-empty.
            """)

    @Argument(help: "JSON reports of check or validate, one per shard.")
    var reports: [String] = []

    @OptionGroup var output: ReportOptions

    func validate() throws {
        if reports.isEmpty { throw ValidationError("Name the JSON reports to merge.") }
    }

    func run() throws {
        let merged: MergedReport
        do {
            merged = try MergedReport(paths: reports)
        } catch {
            printError("error: \(error)")
            throw ExitCode(ExitStatus.failure)
        }
        FileDescriptorOutput.write(CheckReport.text(merged.results), fd: 1)
        try output.write(merged.results, started: nil, implementation: merged.implementation)
        try output.finish(merged.results)
    }
}
