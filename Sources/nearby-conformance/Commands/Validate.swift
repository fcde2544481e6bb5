import ArgumentParser
import NearbyInterop
import NearbyRunner

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hold another implementation to the conformance vectors through the interop protocol.",
        discussion: """
            Starts IMPLEMENTATION (a shell command) and speaks JSON lines with it on its standard \
            input and output (docs/spec/interop.md): a handshake naming the levels it supports (frames, \
            captures, audio, events), then one request per vector of those levels, judged as `check` \
            judges the reference. A time-out, a crash, a malformed reply or a reply for another \
            vector is that vector's verdict, and the implementation is restarted; processes it \
            leaves behind, in its process group or out of it, are ended with it. Vectors still \
            unjudged at the --deadline are "not run: deadline". Exit status 0 when every vector \
            run passes; 1 when one fails or errs, or the implementation never answers the \
            handshake; 2 when the deadline passed before every vector ran; 5 when no vector ran \
            (none selected, or all skipped) unless --allow-empty; 64 for usage errors, report \
            paths that cannot be written among them (checked before the implementation starts).
            """)

    @Option(help: "The implementation to run: a shell command.")
    var implementation: String

    @OptionGroup var selection: VectorSelection

    @Option(help: "Run only this level (repeat for several): frames, captures, audio, events.")
    var level: [InteropLevel] = []

    @Option(help: "Seconds allowed for each reply.")
    var timeout: Double = 30

    @Option(help: "Seconds allowed for the handshake.")
    var handshakeTimeout: Double = 10

    @Option(help: "Seconds the whole run may take; the vectors left are skipped as \"not run: deadline\" (exit 2).")
    var deadline: Double = 1800

    @OptionGroup var reports: ReportOptions

    func validate() throws {
        guard [timeout, handshakeTimeout, deadline].allSatisfy({ $0 > 0 && $0 <= 86_400 }) else {
            throw ValidationError("time-outs and the deadline are seconds, more than 0 and at most 86400")
        }
    }

    func run() throws {
        var session = ValidateSession(
            command: implementation, levels: level.isEmpty ? nil : Set(level), filter: selection.filter,
            shard: selection.parsedShard, timeoutSeconds: timeout, handshakeSeconds: handshakeTimeout)
        session.deadlineSeconds = deadline
        let started = CheckReport.timestampNow()
        ProcessSettings.ignoreBrokenPipes()
        ProcessSettings.adoptOrphans()
        ValidateSession.endImplementationOnSignals()
        let generation = try selection.generate()
        defer { generation?.finish() }
        let progress = ProgressLine()
        let outcome = session.run(
            paths: selection.pathsOrDefault + (generation.map { [$0.file] } ?? []),
            progress: progress.shown
                ? { done, total, id in
                    progress.show("[\(done)/\(total)] \(id)")
                } : nil)
        progress.clear()
        let levels = outcome.implementation.map { $0.levels.map(\.rawValue).joined(separator: ", ") }
        let who =
            outcome.implementation.map {
                "\(TerminalText.escaped($0.name)) \(TerminalText.escaped($0.version)) (levels: \(levels ?? ""))"
            } ?? "\(TerminalText.escaped(implementation)) (no handshake)"
        FileDescriptorOutput.write("implementation: \(who); started \(outcome.starts) time(s)\n", fd: 1)
        if let generation { FileDescriptorOutput.write(generation.line, fd: 1) }
        FileDescriptorOutput.write(CheckReport.text(outcome.results), fd: 1)
        let subject = CheckReport.Subject(
            name: outcome.implementation?.name, version: outcome.implementation?.version, command: implementation)
        try reports.write(outcome.results, started: started, implementation: subject)
        if outcome.deadlinePassed {
            let left = outcome.results.filter { $0.message == InteropFault.deadlinePassed.reason }.count
            FileDescriptorOutput.write(
                "error: the deadline (\(deadline) s) passed with \(left) vectors not run; --deadline sets it\n", fd: 2)
            throw ExitCode(ExitStatus.incomplete)
        }
        // With no vector selected the implementation is never started: that is "nothing ran".
        let counts = CheckReport.Counts(outcome.results)
        try reports.finish(outcome.results, failed: outcome.implementation == nil && counts.total > 0)
    }
}
