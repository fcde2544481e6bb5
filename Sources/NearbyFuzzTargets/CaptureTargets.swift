import NearbyCapture
import NearbyDecode

/// The capture-file targets: a whole file through format sniffing, the container reader
/// (libpcap for pcap and pcapng, our own for btsnoop and hex text), the link layers, the
/// reports and the AD data, exactly as `nearby-conformance decode` reads it. The input is
/// written to a scratch file in `/dev/shm`; seeds are the repository's captures of that
/// container, cut to their first 4 KiB (headers and the first dozens of records: longer
/// inputs only repeat records, and slow the fuzzer down in proportion). Besides the decode
/// invariants (`CaptureDecodeCheck`), btsnoop and pcap inputs must be covered byte for byte
/// by header, records and skipped ranges (`ContainerCoverageCheck`), every input must
/// read the same in runs as one record at a time (`RunReadCheck`), and an input that reads
/// without a container fault, damaged in one of the ways of `CaptureDamage` (the way and the
/// place drawn from its bytes), must lose only what the damage touches
/// (`DamageLocalityCheck`).
extension FuzzTarget {
    public static let capturePcap = captureFile(
        "capture-pcap", "a classic pcap file (any LINKTYPE), through libpcap", suffix: ".pcap")
    public static let capturePcapng = captureFile("capture-pcapng", "a pcapng file, through libpcap", suffix: ".pcapng")
    public static let captureBtsnoop = captureFile(
        "capture-btsnoop", "a btsnoop file (datalinks 1001, 1002, 2001)", suffix: ".btsnoop")
    public static let captureHexText = captureFile("capture-hex-text", "a hex-text H4 log", suffix: ".txt")

    private static func captureFile(_ name: String, _ summary: String, suffix: String) -> FuzzTarget {
        FuzzTarget(
            name: name, summary: summary, dictionary: name, maximumLength: 4_096,
            check: { input in
                let path = ScratchFile.write(input, suffix: suffix)
                return CaptureDecodeCheck.run(path: path).violations + ContainerCoverageCheck.violations(path: path)
                    + RunReadCheck.violations(path: path) + damageViolations(input, path: path, suffix: suffix)
            },
            seeds: { root in
                SeedSource.contents(SeedSource.captures(root).filter { $0.hasSuffix(suffix) }).map {
                    Array($0.prefix(4_096))
                }
            })
    }

    /// `DamageLocalityCheck` on `input` (the file at `path`), in the way and at the places its
    /// bytes' FNV-1a hash chooses.
    private static func damageViolations(_ input: UnsafeRawBufferPointer, path: String, suffix: String) -> [String] {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in input { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let kinds = CaptureDamage.Kind.allCases
        return DamageLocalityCheck.violations(
            clean: Array(input), path: path, kind: kinds[Int(hash % UInt64(kinds.count))], seed: hash,
            damagedPath: ScratchFile.path(suffix: ".damaged" + suffix))
    }
}
