import ArgumentParser
import NearbyRunner

/// Which vectors a command runs: `check` and `validate`.
struct VectorSelection: ParsableArguments {
    @Argument(help: "Vector files or directories (default: Vectors).")
    var paths: [String] = []

    @Option(help: "Run only vectors whose id contains this text.")
    var filter: String?

    @Option(help: "Run shard K of N (K/N, 1-based): the i-th vector in id order belongs to shard i mod N + 1.")
    var shard: String?

    /// The paths named, or `Vectors` when none is.
    var pathsOrDefault: [String] { paths.isEmpty ? ["Vectors"] : paths }

    /// The shard as (K, N); `validate()` has refused any other text.
    var parsedShard: (k: Int, n: Int)? { shard.flatMap(CheckSession.parseShard) }

    func validate() throws {
        if let shard, CheckSession.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N")
        }
    }
}
