import NearbyBytes
import NearbyJSON
import NearbyRunner
import NearbySystem

/// What `nearby-conformance validate` does (docs/spec/interop.md): start the implementation, shake
/// hands, send each selected vector of a level it supports as one request, and judge each
/// reply with the comparisons `check` uses. A time-out, a crash, a malformed reply or a reply
/// for another vector is that vector's verdict; the implementation is then restarted (a
/// fresh handshake) for the next one. Vectors run one at a time, in id order, until the
/// run's deadline, if it has one.
public struct ValidateSession {
    /// What the implementation said about itself.
    public struct Implementation: Sendable, Equatable {
        public var name: String
        public var version: String
        public var levels: [InteropLevel]
        /// The beacon types and fields it reports, and whether it locates faults.
        public var coverage: InteropCoverage

        public init(name: String, version: String, levels: [InteropLevel], coverage: InteropCoverage = .everything) {
            self.name = name
            self.version = version
            self.levels = levels
            self.coverage = coverage
        }
    }

    public struct Outcome: Sendable {
        /// From the first successful handshake; nil if there was none.
        public var implementation: Implementation?
        public var results: [VectorResult]
        /// How many times the implementation was started.
        public var starts: Int
        /// True when the deadline passed before every vector ran: those left are skipped,
        /// `not run: deadline`, and the run is incomplete.
        public var deadlinePassed: Bool
    }

    public var command: String
    /// Levels to run (nil: all the implementation supports).
    public var levels: Set<InteropLevel>?
    public var filter: String?
    public var shard: (k: Int, n: Int)?
    /// Seconds allowed for each reply (a capture or sound file may need more: `timeoutSeconds`
    /// applies to every request) and for the handshake.
    public var timeoutSeconds: Double
    public var handshakeSeconds: Double
    /// Consecutive failed starts after which the remaining vectors are not run.
    public var maximumFailedStarts = 3
    /// Consecutive time-outs after which the remaining vectors are not run (each costs the
    /// full time-out).
    public var maximumConsecutiveTimeouts = 3
    /// Seconds the vectors that end the implementation (time-outs, crashes, failed starts, bad
    /// replies) may take in all, their restarts included, before the remaining vectors are not
    /// run; nil: `defaultFaultBudget` time-outs.
    public var faultBudgetSeconds: Double?
    /// The fault budget in time-outs when `faultBudgetSeconds` is nil.
    public static let defaultFaultBudget = 10.0
    /// Seconds the whole run may take, from the start of `run` (nil: no limit). No vector is
    /// sent after it, and a reply awaited is not waited for past it.
    public var deadlineSeconds: Double?
    /// Leaves out the vectors that are skipped when their files are absent (the field
    /// captures outside the repository), so that a run gives the same verdicts everywhere.
    public var excludingOptionalVectors = false

    public init(
        command: String, levels: Set<InteropLevel>? = nil, filter: String? = nil, shard: (k: Int, n: Int)? = nil,
        timeoutSeconds: Double = 30, handshakeSeconds: Double = 10
    ) {
        self.command = command
        self.levels = levels
        self.filter = filter
        self.shard = shard
        self.timeoutSeconds = timeoutSeconds
        self.handshakeSeconds = handshakeSeconds
    }

    /// The fault budget in seconds.
    var faultBudget: Double { faultBudgetSeconds ?? Self.defaultFaultBudget * timeoutSeconds }

    /// Makes SIGINT and SIGTERM to this process end the implementation's process group
    /// too, and what it left behind outside the group when this process is their reaper (then
    /// this process, with status 128 + the signal), so none is left running.
    public static func endImplementationOnSignals() {
        ChildProcess.endOnSignals()
    }

    /// Runs the selected vectors. The process must ignore SIGPIPE (`nearby-conformance` does
    /// for `validate` and `matrix`): an implementation that exits before reading a request
    /// would otherwise end this process with it.
    public func run(paths: [String], progress: ((Int, Int, String) -> Void)? = nil) -> Outcome {
        let deadline = deadlineSeconds.map { ChildProcess.now() + $0 }
        let set = VectorSet.load(paths).selecting(filter: filter, shard: shard)
        let vectors = set.vectors.filter { !(excludingOptionalVectors && $0.skipWhenFilesAbsent) }
            .sorted { ($0.id, $0.file) < ($1.id, $1.file) }
        var run = ValidateRun(session: self, deadline: deadline)
        var results: [VectorResult] = []
        for (n, v) in vectors.enumerated() {
            let started = ContinuousClock.now
            if var r = run.result(for: v) {
                if r.status == .fail && v.id.hasPrefix(GeneratedVectors.idPrefix) {
                    // A generated vector exists only in this run: say how to make it again, and
                    // the smallest input that still fails (INTEROP-50).
                    r.details.append("generated: \(v.description) (--keep-generated DIR keeps it)")
                    if let m = run.minimizedFrame(v) {
                        r.details.append(
                            "minimized input, still failing: adData \(Hex.encode(m)) (structures AD-5 passes over removed)"
                        )
                    }
                }
                r.seconds = (ContinuousClock.now - started).seconds
                results.append(r)
            }
            progress?(n + 1, vectors.count, v.id)
        }
        run.end()
        results += set.errors.map(\.result)
        results.sort { ($0.id, $0.file) < ($1.id, $1.file) }
        return Outcome(
            implementation: run.implementation, results: results, starts: run.starts,
            deadlinePassed: run.deadlinePassed)
    }
}
