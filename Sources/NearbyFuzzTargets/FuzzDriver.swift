import NearbySystem

/// What a libFuzzer executable in `Fuzz/` calls from `LLVMFuzzerInitialize` and
/// `LLVMFuzzerTestOneInput`.
public enum FuzzDriver {
    /// Set to a folder, the executable writes its target's seeds there (one file per seed,
    /// `seed-NNNNN`) and exits; `NEARBY_FUZZ_ROOT` names the repository (default `..`, the
    /// main package seen from `Fuzz/`).
    public static let seedsVariable = "NEARBY_FUZZ_WRITE_SEEDS"
    public static let rootVariable = "NEARBY_FUZZ_ROOT"
    /// Set (to anything), the executable prints `<dictionary> <max_len>` and exits: what
    /// the script passes to libFuzzer as `-dict` and `-max_len`.
    public static let describeVariable = "NEARBY_FUZZ_DESCRIBE"
    /// Set to a folder of this process alone, the scratch files are made there with names
    /// that do not hold the process id (`ScratchFile`), so that a run's inputs reach the
    /// decoder under the same path in every run: `Fuzz/run --smoke` sets it.
    public static let scratchVariable = "NEARBY_FUZZ_SCRATCH"

    /// Writes the seeds and exits when asked to; otherwise returns 0 and fuzzing starts.
    public static func initialize(_ target: FuzzTarget) -> Int32 {
        // `exit` runs LeakSanitizer's check, so every string and array must be released by
        // then: the work happens in functions that have returned.
        if Environment.value(describeVariable) != nil {
            describe(target)
            CurrentProcess.exit(0)
        }
        guard Environment.value(seedsVariable) != nil else { return 0 }
        CurrentProcess.exit(writeSeeds(target))
    }

    /// Prints `<dictionary> <max_len>` on standard output.
    static func describe(_ target: FuzzTarget) {
        let line = Array("\(target.dictionary) \(target.maximumLength)\n".utf8)
        line.withUnsafeBytes { _ = StandardStreams.write($0, to: 1) }
    }

    /// Writes the target's seeds to the folder `NEARBY_FUZZ_WRITE_SEEDS` names; 0 on success.
    static func writeSeeds(_ target: FuzzTarget) -> Int32 {
        guard let folder = Environment.value(seedsVariable) else { return 1 }
        let root = Environment.value(rootVariable) ?? ".."
        var seen = Set<[UInt8]>()
        var written = 0
        for seed in target.seeds(root) where seed.count <= target.maximumLength && seen.insert(seed).inserted {
            written += 1
            let digits = String(written)
            let name = folder + "/seed-" + String(repeating: "0", count: max(0, 5 - digits.count)) + digits
            if !ScratchFile.write(seed, to: name) {
                report("fuzz-\(target.name): cannot write \(name)")
                return 1
            }
        }
        report("fuzz-\(target.name): \(written) seeds in \(folder)")
        return written > 0 ? 0 : 1
    }

    /// Runs one input; a broken invariant is printed and aborts, so libFuzzer keeps the input.
    public static func run(_ target: FuzzTarget, _ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        let bytes = UnsafeRawBufferPointer(start: data.map(UnsafeRawPointer.init), count: data == nil ? 0 : size)
        let violations = target.check(bytes)
        if !violations.isEmpty {
            for v in violations { report("fuzz-\(target.name): \(v)") }
            CurrentProcess.abort()
        }
        return 0
    }

    /// Writes a line to standard error (unbuffered, so it precedes libFuzzer's report).
    static func report(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        bytes.withUnsafeBytes { _ = StandardStreams.write($0, to: 2) }
    }
}
