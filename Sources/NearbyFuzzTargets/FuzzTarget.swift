/// One entry point of the decoder as a fuzz target: how a fuzzer's input reaches it, what
/// must hold whatever the input, and where its seeds come from.
///
/// The same value serves three callers: the libFuzzer executables in `Fuzz/` (one per
/// target, each a few lines calling `FuzzDriver`), the script that seeds them
/// (`Fuzz/run`), and the unit test that replays the seeds and every crash fixture in
/// `Fuzz/Regressions/<name>/` in an ordinary `swift test` run.
///
/// `check` never traps on bad input: the decoder must turn any input into values or
/// typed errors. It returns the broken invariants (empty when all hold), and the driver
/// aborts on a non-empty answer so that libFuzzer keeps the input as a crash.
public struct FuzzTarget: Sendable {
    /// The target's name: `fuzz-<name>` is its executable, `Fuzz/Regressions/<name>/` its
    /// crash fixtures, `Fuzz/Dictionaries/<dictionary>.dict` its dictionary.
    public let name: String
    /// What the input is, in one line.
    public let summary: String
    /// The dictionary file's name without `.dict`, shared by targets that read the same format.
    public let dictionary: String
    /// libFuzzer's `-max_len` for this target (bytes).
    public let maximumLength: Int
    /// Runs one input and returns the invariants it broke.
    public let check: @Sendable (UnsafeRawBufferPointer) -> [String]
    /// The seed inputs, derived from the repository at `root` (`Captures/`, `Vectors/`).
    public let seeds: @Sendable (_ root: String) -> [[UInt8]]

    public init(
        name: String, summary: String, dictionary: String, maximumLength: Int = 4_096,
        check: @escaping @Sendable (UnsafeRawBufferPointer) -> [String],
        seeds: @escaping @Sendable (_ root: String) -> [[UInt8]]
    ) {
        self.name = name
        self.summary = summary
        self.dictionary = dictionary
        self.maximumLength = maximumLength
        self.check = check
        self.seeds = seeds
    }

    /// Runs `bytes` through the target.
    public func check(_ bytes: [UInt8]) -> [String] {
        bytes.withUnsafeBytes { check($0) }
    }

    /// Every target, in the order the script runs them.
    public static let all: [FuzzTarget] = [
        capturePcap, capturePcapng, captureBtsnoop, captureHexText,
        hciRecords, linkLayerRecords,
        adStructures, eddystoneFrame, iBeaconFrame, altBeaconFrame, tokenAdvertisement,
        vectorJSON, scenarioJSON, registryJSON,
        nutSamples, nutCodeword, displayFilter,
    ]

    /// The target called `name`, if any.
    public static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}
