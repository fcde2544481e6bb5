import ArgumentParser
import NearbyDecode
import NearbyInterop
import NearbyRunner
import NearbySystem

/// Which vectors a command runs: `check` and `validate`.
struct VectorSelection: ParsableArguments {
    @Argument(help: "Vector files or directories (default: Vectors).")
    var paths: [String] = []

    @Option(help: "Run only vectors whose id contains this text.")
    var filter: String?

    @Option(help: "Run shard K of N (K/N, 1-based): the i-th vector in id order belongs to shard i mod N + 1.")
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Also run N vectors made for this run (half frames, a tenth captures, the rest scenarios).",
            discussion: "Without PATH, only these run. Their expected results are what was encoded.",
            valueName: "N"))
    var generated: Int?

    @Option(
        help:
            "The seed of the generated vectors (default: a fresh one, printed); the same N and seed give the same vectors."
    )
    var seed: UInt64?

    @Option(help: ArgumentHelp("Keep the generated vectors and their files in this folder.", valueName: "DIR"))
    var keepGenerated: String?

    /// The paths named; when none is, `Vectors`, unless only generated vectors are to run.
    var pathsOrDefault: [String] { paths.isEmpty ? (generated == nil ? ["Vectors"] : []) : paths }

    /// The shard as (K, N); `validate()` has refused any other text.
    var parsedShard: (k: Int, n: Int)? { shard.flatMap(CheckSession.parseShard) }

    /// Refuses a shard that is not K/N, and a run that names no path where there is no
    /// `Vectors` directory: nothing says which vectors to run, a usage error (exit 64).
    func validate() throws {
        if let shard, CheckSession.parseShard(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 ≤ K ≤ N")
        }
        if let generated, !(1...100_000).contains(generated) {
            throw ValidationError("--generated is a number of vectors from 1 to 100000")
        }
        if generated == nil && (seed != nil || keepGenerated != nil) {
            throw ValidationError("--seed and --keep-generated go with --generated N")
        }
        if paths.isEmpty && generated == nil && !FileTree.isDirectory("Vectors") {
            throw ValidationError(
                """
                no Vectors/ directory here (\(ProcessPaths.absolute("Vectors"))): run from the repository's root, \
                or name vector files or directories (PATH…)
                """)
        }
    }
}

extension VectorSelection {
    /// The generated vectors of a run: where their vector file is, and the folder to remove
    /// when the run ends (nil when kept).
    struct Generation {
        var file: String
        var seed: UInt64
        var count: Int
        var scratch: ScratchFolder?

        func finish() { scratch?.remove() }

        /// The line that says how to get the same vectors again.
        var line: String {
            "generated \(count) vectors from seed \(seed) (--generated \(count) --seed \(seed) makes them again)\n"
        }
    }

    /// Writes the generated vectors, if asked for, into a scratch folder or `--keep-generated`.
    func generate() throws -> Generation? {
        guard let generated else { return nil }
        let seed = self.seed ?? UInt64.random(in: 0...UInt64(UInt32.max))
        var scratch: ScratchFolder?
        let folder: String
        if let keepGenerated {
            if let problem = OutputPath.problemWritingFolder(keepGenerated) { throw ValidationError(problem) }
            do {
                try FileSystem.makeDirectory(keepGenerated)
            } catch {
                throw ValidationError("cannot make \(keepGenerated): \(error)")
            }
            folder = keepGenerated
        } else {
            do {
                scratch = try ScratchFolder(purpose: "generated")
            } catch {
                throw ValidationError(error.description)
            }
            folder = scratch!.path
        }
        let file: String
        do {
            file = try GeneratedVectors.write(count: generated, seed: seed, to: folder)
        } catch {
            scratch?.remove()
            throw ValidationError("cannot write the generated vectors: \(error)")
        }
        return Generation(file: file, seed: seed, count: generated, scratch: scratch)
    }
}
