import ArgumentParser
import NearbyDecode
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

    /// Refuses a shard that is not K/N, and a run that names no path where there is no
    /// `Vectors` directory: nothing says which vectors to run, a usage error (exit 64).
    func validate() throws {
        if let shard, CheckSession.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N")
        }
        if paths.isEmpty && !FileTree.isDirectory("Vectors") {
            throw ValidationError(
                """
                no Vectors/ directory here (\(ProcessPaths.absolute("Vectors"))): run from the repository's root, \
                or name vector files or directories (PATH…)
                """)
        }
    }
}
