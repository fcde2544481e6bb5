#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Writes the seeds and exits when asked to; otherwise returns 0 and fuzzing starts.
    public static func initialize(_ target: FuzzTarget) -> Int32 {
        // `exit` runs LeakSanitizer's check, so every string and array must be released by
        // then: the work happens in functions that have returned.
        if getenv(describeVariable) != nil {
            describe(target)
            exit(0)
        }
        guard getenv(seedsVariable) != nil else { return 0 }
        exit(writeSeeds(target))
    }

    /// Prints `<dictionary> <max_len>` on standard output.
    static func describe(_ target: FuzzTarget) {
        var line = Array("\(target.dictionary) \(target.maximumLength)\n".utf8)
        _ = line.withUnsafeMutableBytes { write(1, $0.baseAddress, $0.count) }
    }

    /// Writes the target's seeds to the folder `NEARBY_FUZZ_WRITE_SEEDS` names; 0 on success.
    static func writeSeeds(_ target: FuzzTarget) -> Int32 {
        guard let folder = getenv(seedsVariable).map({ String(cString: $0) }) else { return 1 }
        let root = getenv(rootVariable).map { String(cString: $0) } ?? ".."
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
            abort()
        }
        return 0
    }

    /// Writes a line to standard error (unbuffered, so it precedes libFuzzer's report).
    static func report(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
    }
}
