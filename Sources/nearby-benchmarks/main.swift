// nearby-benchmarks: throughput figures, release build only, never part of `swift test`.
//
//     swift run -c release nearby-benchmarks [engine | audio]
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
default:
    print("unknown benchmark \(which); available: engine, audio")
}
