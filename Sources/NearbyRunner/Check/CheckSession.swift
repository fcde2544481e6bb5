import Dispatch
import NearbyJSON
import NearbyReplay

/// What `nearby-conformance check` does: load vectors, run them (on several threads if
/// asked), and collect one result per vector, sorted by id whatever the thread count.
public struct CheckSession: Sendable {
    public var filter: String?
    public var shard: (k: Int, n: Int)?
    public var jobs: Int
    /// The vectors the reference is known to fail: reported as skipped while they fail.
    public var knownFailures: KnownFailures

    public init(
        filter: String? = nil, shard: (k: Int, n: Int)? = nil, jobs: Int = 1,
        knownFailures: KnownFailures = KnownFailures()
    ) {
        self.filter = filter
        self.shard = shard
        self.jobs = max(1, jobs)
        self.knownFailures = knownFailures
    }

    /// Results: every selected vector's, plus one `error` result per vector (or file) that
    /// could not be loaded, all sorted by id (then file).
    public func run(paths: [String], progress: (@Sendable (Int, Int, String) -> Void)? = nil) -> [VectorResult] {
        let set = VectorSet.load(paths).selecting(filter: filter, shard: shard)
        let vectors = set.vectors
        let box = ResultBox(count: vectors.count)
        let jobs = min(self.jobs, max(1, vectors.count))
        let audioFrames = AudioFrameCache()
        DispatchQueue.concurrentPerform(iterations: jobs) { worker in
            var i = worker
            while i < vectors.count {
                let started = ContinuousClock.now
                var r = knownFailures.apply(VectorRunner.run(vectors[i], audioFrames: audioFrames))
                r.seconds = (ContinuousClock.now - started).seconds
                let done = box.store(r, at: i)
                progress?(done, vectors.count, r.id)
                i += jobs
            }
        }
        var results = box.results
        results += set.errors.map(\.result)
        results.sort { ($0.id, $0.file) < ($1.id, $1.file) }
        return results
    }

    /// Parses `K/N` (1 ≤ K ≤ N).
    public static func parseShard(_ text: String) -> (k: Int, n: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(k) else {
            return nil
        }
        return (k, n)
    }
}

/// Results written by worker threads, each to its own slot.
final class ResultBox: @unchecked Sendable {
    private var slots: [VectorResult?]
    private var done = 0
    private let lock = DispatchQueue(label: "nearby-conformance.results")

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func store(_ r: VectorResult, at i: Int) -> Int {
        lock.sync {
            slots[i] = r
            done += 1
            return done
        }
    }

    var results: [VectorResult] { lock.sync { slots.compactMap { $0 } } }
}

extension Duration {
    /// The duration in seconds.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
