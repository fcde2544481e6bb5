import NearbyJSON
import NearbySynthesis
import NearbySystem

/// `decode` as users run it (`nearby-benchmarks cli`): the built `nearby-conformance` as a whole
/// process on the benchmark corpus, output to /dev/null, beside two baselines in the same
/// loop — the C loop over libpcap of `Scripts/baselines/beacon-loop.c` (compiled here with
/// `cc -O2`; it must count the same advertisements and beacons), run just before each
/// command it is compared with, and `tshark -T fields` when it is installed, once a round —
/// and `nearby-benchmarks decode-child` (the pipeline without output). Rates are
/// advertisements per second of the child's user and system CPU time (`wait4`); ratios are
/// taken pair by pair, then their median. The pipeline is also compared in process: the CPU
/// time that `decode-child` and the C loop each measure from opening the file to the end
/// (the pipeline itself, as a program that links the library runs it, without either
/// process's start), from the same pair of runs.
struct CLIBenchmark {
    var capture: CaptureBenchmark
    var rounds = 5

    struct Child {
        var seconds: Double
        var peakMiB: Double
        /// What the child printed, when it was kept.
        var output: String

        /// The CPU seconds a child states on its second line (the C loop, `decode-child`).
        var statedSeconds: Double? {
            let lines = output.split(separator: "\n")
            return lines.count > 1 ? Double(lines[1]) : nil
        }
    }

    /// Runs `argv` with standard output to `output` (a path) and returns its CPU time and the
    /// `ru_maxrss` that `wait4` reports: an upper bound of the child's peak, as Linux carries
    /// this process's peak at the spawn into it. With `keepingOutput`, what it printed too.
    static func run(_ argv: [String], output: String = "/dev/null", keepingOutput: Bool = false) -> Child {
        if keepingOutput {
            let kept = "\(Environment.temporaryFolder)/nearby-benchmarks-\(CurrentProcess.id).out"
            defer { try? FileSystem.remove(kept) }
            var child = run(argv, output: kept)
            child.output = (try? JSONFile.read(kept)).map { String(decoding: $0, as: UTF8.self) } ?? ""
            return child
        }
        guard let result = ProcessRun.run(argv, output: output) else { fatalError("cannot start \(argv[0])") }
        guard result.status == 0 else { fatalError("\(argv.joined(separator: " ")) failed (status \(result.status))") }
        return Child(seconds: result.cpuSeconds, peakMiB: Double(result.peakKiB) / 1024, output: "")
    }

    static func which(_ tool: String) -> String? {
        ProcessRun.which(tool)
    }

    /// The repository root, from this source file's path (benchmarks run from a checkout).
    static let repository: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// The `nearby-conformance` built beside this program; stops when it is missing.
    static var builtTool: String {
        let bin = String(CommandLine.arguments[0].split(separator: "/").dropLast().joined(separator: "/"))
        let tool = (CommandLine.arguments[0].hasPrefix("/") ? "/" : "") + bin + "/nearby-conformance"
        guard FileSystem.isAccessible(tool, .execute) else {
            fatalError("\(tool) is missing: swift build -c release (both products)")
        }
        return tool
    }

    func run() -> [Summary] {
        let counts = capture.prepare()
        let tool = Self.builtTool
        let loop = capture.directory + "/beacon-loop"
        guard
            Self.run(["cc", "-O2", "-o", loop, Self.repository + "/Scripts/baselines/beacon-loop.c", "-lpcap"])
                .seconds >= 0
        else { fatalError() }
        let loopCounts = capture.directory + "/beacon-loop.out"
        _ = Self.run([loop, capture.pcap], output: loopCounts)
        let said = (try? JSONFile.read(loopCounts)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let expected = "\(counts.records) \(counts.advertisements) \(counts.beacons)"
        guard said.split(separator: "\n").first.map(String.init) == expected else {
            fatalError("the C loop counted \(said), the corpus holds \(expected) (records advertisements beacons)")
        }
        let tshark = Self.which("tshark")
        let n = Double(counts.advertisements)
        typealias Mode = (name: String, argv: [String])
        let pipeline = "decode pipeline, no output, pcap 201"
        let inProcess = "decode pipeline, in process, pcap 201"
        let loopInProcess = "C loop over libpcap, in process"
        let modes: [Mode] = [
            ("decode, JSON lines, pcap 201", [tool, "decode", capture.pcap]),
            ("decode, JSON lines, btsnoop", [tool, "decode", capture.btsnoop]),
            ("decode --beacons-only, pcap 201", [tool, "decode", "--beacons-only", capture.pcap]),
            ("decode --format table, pcap 201", [tool, "decode", "--format", "table", capture.pcap]),
            (pipeline, [CommandLine.arguments[0], "decode-child", capture.pcap]),
        ]
        var rates: [String: [Double]] = [:]
        var toLoop: [String: [Double]] = [:]
        var toTShark: [String: [Double]] = [:]
        var peak: [String: Double] = [:]
        print("round | measure | CPU s | adv/s | ÷ C loop | ÷ tshark -T fields | ru_maxrss MiB")
        for round in 1...rounds {
            let t = tshark.map {
                Self.run([
                    // The AD structures too, as decode's `ad` entries give them.
                    $0, "-r", capture.pcap, "-T", "fields", "-e", "frame.number", "-e", "bthci_evt.bd_addr", "-e",
                    "bthci_evt.rssi", "-e", "btcommon.eir_ad.entry.data", "-e", "btcommon.eir_ad.entry.type", "-e",
                    "btcommon.eir_ad.entry.company_id", "-e", "btcommon.eir_ad.entry.uuid_16",
                ])
            }
            if let t {
                rates["tshark -T fields", default: []].append(n / t.seconds)
                print("\(round) | tshark -T fields | \(t.seconds) | \(Int(n / t.seconds)) | | |")
            }
            for mode in modes {
                // The C loop right before the command: the pair shares the machine's load.
                let c = Self.run([loop, capture.pcap], keepingOutput: mode.name == pipeline)
                rates["C loop over libpcap", default: []].append(n / c.seconds)
                print("\(round) | C loop over libpcap | \(c.seconds) | \(Int(n / c.seconds)) | | |")
                let m = Self.run(mode.argv, keepingOutput: mode.name == pipeline)
                if let loopSeconds = c.statedSeconds, let seconds = m.statedSeconds {
                    rates[loopInProcess, default: []].append(n / loopSeconds)
                    rates[inProcess, default: []].append(n / seconds)
                    toLoop[inProcess, default: []].append(loopSeconds / seconds)
                    print("\(round) | \(loopInProcess) | \(loopSeconds) | \(Int(n / loopSeconds)) | | |")
                    let r = ["\(round)", inProcess, "\(seconds)", "\(Int(n / seconds))", ratio(loopSeconds / seconds)]
                    print(r.joined(separator: " | ") + " | | ")
                }
                let rate = n / m.seconds
                rates[mode.name, default: []].append(rate)
                toLoop[mode.name, default: []].append(c.seconds / m.seconds)
                if let t { toTShark[mode.name, default: []].append(t.seconds / m.seconds) }
                peak[mode.name] = max(peak[mode.name] ?? 0, m.peakMiB)
                let r = [
                    "\(round)", mode.name, "\(m.seconds)", "\(Int(rate))", ratio(c.seconds / m.seconds),
                    t.map { ratio($0.seconds / m.seconds) } ?? "—", "\(m.peakMiB)",
                ]
                print(r.joined(separator: " | "))
            }
        }
        if tshark == nil { print("note: tshark is not installed (Debian package tshark); no TShark ratios") }
        print("median | measure | adv/s | ÷ C loop | ÷ tshark | ru_maxrss MiB (upper bound)")
        var out: [Summary] = []
        for name in ["C loop over libpcap", loopInProcess, "tshark -T fields"] + modes.map(\.name) + [inProcess] {
            guard let r = rates[name] else { continue }
            let row = [
                "median", name, "\(Int(median(r)))", toLoop[name].map { ratio(median($0)) } ?? "",
                toTShark[name].map { ratio(median($0)) } ?? "", peak[name].map { "\($0)" } ?? "",
            ]
            print(row.joined(separator: " | "))
            out.append(Summary(measure: "cli: \(name)", figure: median(r), unit: "adv/s", target: nil))
        }
        return out
    }

    private func ratio(_ x: Double) -> String { String(Double(Int(x * 1000)) / 1000) }
}
