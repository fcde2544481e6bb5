// nearby-benchmarks: throughput figures, release build only, never part of `swift test`.
//
//     swift run -c release nearby-benchmarks [capture [N] | engine | audio]
//
// Prints one table row per benchmark. Figures are single-core; compare the ratio columns
// between runs, as this kind of machine is shared and noisy.

import NearbyAudio

let which = CommandLine.arguments.dropFirst().first ?? "engine"
#if DEBUG
print("warning: debug build; run with `swift run -c release nearby-benchmarks` for real figures")
#endif
switch which {
case "engine":
    let b = EngineBenchmark()
    print("benchmark | messages | subscriptions | sightings | sightings/s | resolve-only/s | engine/resolve | events")
    for _ in 0..<3 {
        let f = b.run()
        let row: [String] = ["engine", "\(b.messages)", "\(b.subscriptions)", "\(b.sightings)",
                             String(Int(f.sightingsPerSecond)), String(Int(f.resolveOnlyPerSecond)),
                             String(Double(Int(f.sightingsPerSecond / f.resolveOnlyPerSecond * 1000)) / 1000), "\(f.events)"]
        print(row.joined(separator: " | "))
    }
case "audio":
    print("benchmark | rate | audio s | frames | decode x real time | baseline x real time | decode/baseline")
    for mode in [AudioMode.inaudible, .audible] {
        for rate in [48_000, 44_100] {
            let b = AudioBenchmark(sampleRate: rate, mode: mode)
            let samples = b.recording()
            for _ in 0..<2 {
                let f = b.run(samples)
                let row: [String] = ["\(mode)", "\(rate)", "\(Int(b.seconds))", "\(f.frames)",
                                     String(Int(f.realTimeFactor)), String(Int(f.baselineRealTimeFactor)),
                                     String(Double(Int(f.realTimeFactor / f.baselineRealTimeFactor * 10000)) / 10000)]
                print(row.joined(separator: " | "))
            }
        }
    }
case "capture":
    var b = CaptureBenchmark()
    if let n = CommandLine.arguments.dropFirst(2).first.flatMap({ Int($0) }) { b.advertisements = n }
    let counts = b.prepare()
    print("corpus: \(counts.advertisements) advertisements (\(counts.beacons) beacons) in \(counts.records) records: \(b.btsnoop), \(b.pcap)")
    print("benchmark | advertisements | beacons | adv/s | records/s container only | records/s libpcap only | decode/container | peak MiB (child)")
    for (name, path) in [("btsnoop", b.btsnoop), ("pcap 201", b.pcap)] {
        for _ in 0..<3 {
            let f = CaptureBenchmark.decode(path)
            let container = CaptureBenchmark.containerOnly(path)
            let libpcap = path.hasSuffix(".pcap") ? String(Int(CaptureBenchmark.libpcapOnly(path))) : "—"
            let rate = Double(f.advertisements) / f.seconds
            let perRecord = Double(counts.records) / f.seconds
            print([name, "\(f.advertisements)", "\(f.beacons)", String(Int(rate)), String(Int(container)), libpcap,
                   String(Double(Int(perRecord / container * 1000)) / 1000),
                   String(Double(Int(CaptureBenchmark.childPeakMiB(path) * 10)) / 10)].joined(separator: " | "))
        }
    }
    let scenario = b.replayScenario()
    print("benchmark | sightings | events | sightings/s (decode + engine)")
    for _ in 0..<3 {
        let r = CaptureBenchmark.replay(scenario: scenario, capture: b.pcap)
        print(["replay 100 subscriptions", "\(r.sightings)", "\(r.events)", String(Int(Double(r.sightings) / r.seconds))].joined(separator: " | "))
    }
case "decode-child":
    // The child of the peak-memory figure: decode one file and exit.
    let f = CaptureBenchmark.decode(CommandLine.arguments[2])
    precondition(f.advertisements > 0)
default:
    print("unknown benchmark \(which); available: capture [N], engine, audio")
}
