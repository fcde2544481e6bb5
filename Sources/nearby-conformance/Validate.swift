import ArgumentParser
import NearbyCapture
import NearbyRunner
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension InteropLevel: ExpressibleByArgument {
    public init?(argument: String) {
        let l = InteropLevel(rawValue: argument)
        guard InteropLevel.all.contains(l) else { return nil }
        self = l
    }
}

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Hold another implementation to the conformance vectors through the interop protocol.",
        discussion: """
        Starts IMPLEMENTATION (a shell command) and speaks JSON lines with it on its standard \
        input and output (docs/interop.md): a handshake naming the levels it supports (frames, \
        captures, audio, events), then one request per vector of those levels, judged as `check` \
        judges the reference. A time-out, a crash, a malformed reply or a reply for another \
        vector is that vector's verdict, and the implementation is restarted. Exit status 0 \
        when every vector run passes; 1 when one fails or errs, or the implementation never \
        answers the handshake; 5 when no vector ran (none selected, or all skipped) unless \
        --allow-empty; 64 for usage errors, report paths that cannot be written among them \
        (checked before the implementation starts).
        """)

    @Option(help: "The implementation to run: a shell command.")
    var implementation: String

    @Argument(help: "Vector files or directories (default: Vectors).")
    var paths: [String] = []

    @Option(help: "Run only this level (repeat for several): frames, captures, audio, events.")
    var level: [InteropLevel] = []

    @Option(help: "Run only vectors whose id contains this text.")
    var filter: String?

    @Option(help: "Run shard K of N (K/N, 1-based).")
    var shard: String?

    @Option(help: "Seconds allowed for each reply.")
    var timeout: Double = 30

    @Option(help: "Seconds allowed for the handshake.")
    var handshakeTimeout: Double = 10

    @Option(help: "Write the JSON report to this file.")
    var json: String?

    @Option(help: "Write a JUnit XML report to this file.")
    var junit: String?

    @Flag(help: "Exit 0 even when no vector ran (levels, a filter or a shard that select none, every vector skipped).")
    var allowEmpty = false

    func validate() throws {
        if let shard, CheckSession.parseShard(shard) == nil { throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N") }
        if let json, let problem = OutputPath.problemWritingFile(json) { throw ValidationError("--json: \(problem)") }
        if let junit, let problem = OutputPath.problemWritingFile(junit) { throw ValidationError("--junit: \(problem)") }
        guard timeout > 0, timeout <= 86_400, handshakeTimeout > 0, handshakeTimeout <= 86_400 else {
            throw ValidationError("time-outs are seconds, more than 0 and at most 86400")
        }
    }

    func run() throws {
        let session = ValidateSession(command: implementation, levels: level.isEmpty ? nil : Set(level), filter: filter,
                                      shard: shard.flatMap(CheckSession.parseShard), timeoutSeconds: timeout,
                                      handshakeSeconds: handshakeTimeout)
        let started = CheckReport.timestampNow()
        ValidateSession.endImplementationOnSignals()
        let terminal = isatty(2) != 0
        let outcome = session.run(paths: paths.isEmpty ? ["Vectors"] : paths, progress: terminal ? { done, total, id in
            FileDescriptorOutput.write("\r\u{1B}[K[\(done)/\(total)] \(id)", fd: 2)
        } : nil)
        if terminal { FileDescriptorOutput.write("\r\u{1B}[K", fd: 2) }
        let who = outcome.implementation.map { "\(TerminalText.escaped($0.name)) \(TerminalText.escaped($0.version)) (levels: \($0.levels.map(\.rawValue).joined(separator: ", ")))" }
            ?? "\(TerminalText.escaped(implementation)) (no handshake)"
        FileDescriptorOutput.write("implementation: \(who); started \(outcome.starts) time(s)\n", fd: 1)
        FileDescriptorOutput.write(CheckReport.text(outcome.results), fd: 1)
        let subject = CheckReport.Subject(name: outcome.implementation?.name, version: outcome.implementation?.version,
                                          command: implementation)
        if let json { try writeReport(json, CheckReport.json(outcome.results, implementation: subject)) }
        if let junit { try writeReport(junit, CheckReport.junit(outcome.results, timestamp: started, implementation: subject)) }
        let counts = CheckReport.Counts(outcome.results)
        // With no vector selected the implementation is never started: that is "nothing ran".
        if !counts.allPassed || (outcome.implementation == nil && counts.total > 0) { throw ExitCode(1) }
        if counts.pass == 0 && !allowEmpty {
            FileDescriptorOutput.write("error: no vector ran (\(counts.skipped) skipped); --allow-empty accepts that\n", fd: 2)
            throw ExitCode(Check.nothingRanStatus)
        }
    }

    func writeReport(_ path: String, _ text: String) throws {
        do {
            try OutputFile.write(Array(text.utf8), to: path)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

struct Adapter: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the reference decoder and engine over the interop protocol on standard input and output.",
        discussion: "For `validate --implementation 'nearby-conformance adapter'`: docs/interop.md §4.")

    func run() throws {
        // Written straight to the file descriptor: each reply must leave at once, not sit in a buffer.
        ReferenceAdapter.serve(readLine: { Swift.readLine(strippingNewline: true) }, write: { FileDescriptorOutput.write($0 + "\n", fd: 1) })
    }
}
