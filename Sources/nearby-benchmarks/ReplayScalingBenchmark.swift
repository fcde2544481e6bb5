import NearbyBytes
import NearbyJSON
import NearbyMessages
import NearbySynthesis
import NearbySystem

/// How `replay` scales (`nearby-benchmarks replay-scaling`), as users run it: the built
/// `nearby-conformance replay` as a whole process, its CPU time and peak memory as `wait4`
/// reports them, taken by a small intermediate process (`nearby-benchmarks measure`) so that
/// this process's memory does not count as the child's. Three curves:
///
/// - **Subscriptions, no capture**: N subscriptions (namespace "proj", twenty types, four
///   strategies), ten state changes, then half of them unsubscribed. Time per action is the
///   CPU time above the empty scenario's, divided by the actions.
/// - **Subscriptions over the capture**: the benchmark corpus (`CaptureCorpus`, 1,000,000
///   advertisements) with a registry of its beacons and N subscriptions: 100 over the
///   registry's types and N − 100 over types no message has, so that the output is the same
///   and the curve shows what the subscriptions themselves cost (the ratio is to 100
///   subscriptions in the same run); then all N over the registry's types, where the found
///   pairs, and so the events, grow with N.
/// - **Distinct beacons**: a corpus whose devices each advertise their own beacons, replayed
///   with `--subscribe-all` (every Eddystone-UID and iBeacon is a message of its own), by
///   number of devices and by capture length.
struct ReplayScalingBenchmark {
    var directory = Environment.temporaryFolder + "/nearby-benchmarks/replay-scaling"
    /// Subscription counts of the first two curves.
    var subscriptionCounts = [10, 100, 1_000, 10_000, 100_000]
    var captureSubscriptionCounts = [100, 1_000, 10_000, 100_000]
    /// (devices, advertisements) of the third curve.
    var beaconCorpora = [
        (1_000, 1_000_000), (10_000, 1_000_000), (100_000, 1_000_000), (1_000_000, 1_000_000),
        (200_000, 1_000_000), (200_000, 3_000_000),
    ]
    let tool: String

    /// One measured command: CPU seconds and peak resident memory.
    struct Figures {
        var seconds: Double
        var peakMiB: Double
    }

    /// Runs `arguments` (a `nearby-conformance` command line without the program) through
    /// `nearby-benchmarks measure`, output to /dev/null, the best CPU time of `runs` runs and
    /// the largest peak.
    func measure(_ arguments: [String], runs: Int = 3) -> Figures {
        var best = Figures(seconds: .infinity, peakMiB: 0)
        for _ in 0..<runs {
            let report = "\(directory)/measure.out", errors = "\(directory)/measure.err"
            guard
                let r = ProcessRun.run(
                    [CommandLine.arguments[0], "measure", tool] + arguments, executable: FileSystem.executablePath(),
                    output: report, errors: errors), r.status == 0,
                let text = try? JSONFile.read(report)
            else {
                let said = (try? JSONFile.read(errors)).map { String(decoding: $0, as: UTF8.self) } ?? ""
                fatalError("\(arguments.joined(separator: " ")) failed: \(said)")
            }
            let fields = String(decoding: text, as: UTF8.self).split(whereSeparator: \.isWhitespace)
            guard fields.count == 2, let seconds = Double(fields[0]), let kib = Double(fields[1]) else {
                fatalError("measure said \(fields)")
            }
            best.seconds = min(best.seconds, seconds)
            best.peakMiB = max(best.peakMiB, kib / 1024)
        }
        return best
    }

    func run() {
        try? FileSystem.makeDirectory(directory)
        subscriptionCurve()
        captureCurve()
        beaconCurve()
    }

    // MARK: subscriptions, no capture

    /// A scenario of `n` subscriptions, ten state changes and `n / 2` unsubscriptions, one
    /// action a millisecond; returns its path and how many actions it holds.
    func subscriptionScenario(_ n: Int) -> (path: String, actions: Int) {
        var events: [String] = []
        events.reserveCapacity(n + n / 2 + 10)
        func time(_ ms: Int) -> String { JSONValue.seconds(micros: Int64(ms) * 1_000).serialized }
        for i in 0..<n {
            let background = i % 4 == 1 ? #", "strategy": {"allowInBackground": true}"# : ""
            let beacons = i % 4 == 2 ? #", "beaconStrategy": {"lowPowerPreferred": false}"# : ""
            events.append(
                #"{"time": \#(time(i)), "subscribe": {"id": "s\#(i)", "deviceTypesToDiscover": ["bleBeacons"], "#
                    + #""messageNamespace": "proj", "type": "t\#(i % 20)"\#(background)\#(beacons)}}"#)
        }
        for k in 0..<10 {
            let state = k % 2 == 0 ? "background" : "foreground"
            events.append(#"{"time": \#(time(n + k)), "state": {"appState": "\#(state)"}}"#)
        }
        for i in stride(from: 0, to: n, by: 2) {
            events.append(#"{"time": \#(time(n + 10 + i)), "unsubscribe": "s\#(i)"}"#)
        }
        let text = #"{"scenario": 1, "lostTimeoutSeconds": 10, "events": ["# + events.joined(separator: ",\n") + "]}\n"
        let path = "\(directory)/subscriptions-\(n).scenario.json"
        write(text, to: path)
        return (path, events.count)
    }

    func subscriptionCurve() {
        let empty = subscriptionScenario(0)
        let base = measure(["replay", "--scenario", empty.path])
        print("")
        print(
            "subscriptions, no capture (the empty scenario: \(format(base.seconds * 1e3)) ms, \(format(base.peakMiB)) MiB)"
        )
        print("subscriptions | actions | CPU s | µs per action | peak MiB")
        var perAction: [Int: Double] = [:]
        for n in subscriptionCounts {
            let s = subscriptionScenario(n)
            let f = measure(["replay", "--scenario", s.path])
            perAction[n] = max(0, f.seconds - base.seconds) * 1e6 / Double(s.actions)
            print("\(n) | \(s.actions) | \(format(f.seconds)) | \(format(perAction[n]!)) | \(format(f.peakMiB))")
        }
        if let low = perAction[1_000], let high = perAction[100_000], low > 0 {
            print("time per action, 100,000 subscriptions against 1,000: \(format(high / low))× (target ≤ 2×)")
        }
    }

    // MARK: subscriptions over the capture

    func captureCurve() {
        let capture = CaptureBenchmark()
        let counts = capture.prepare()
        print("")
        print("subscriptions over the corpus (\(counts.advertisements) advertisements, pcap 201)")
        print("subscriptions | selecting | CPU s | ns per advertisement | × 100 subscriptions | peak MiB")
        var first: Double?
        let rows =
            captureSubscriptionCounts.map { ($0, 100) }
            + captureSubscriptionCounts.dropFirst().prefix(2).map { ($0, $0) }
        for (n, selecting) in rows {
            let scenario = capture.replayScenario(subscriptions: n, selecting: selecting)
            let f = measure(["replay", "--scenario", scenario, "--capture", capture.pcap])
            first = first ?? f.seconds
            print(
                "\(n) | \(selecting) | \(format(f.seconds)) | \(format(f.seconds * 1e9 / Double(counts.advertisements))) | "
                    + "\(format(f.seconds / first!)) | \(format(f.peakMiB))")
        }
    }

    // MARK: distinct beacons

    func beaconCurve() {
        let empty = "\(directory)/empty.scenario.json"
        write(#"{"scenario": 1}"# + "\n", to: empty)
        print("")
        print("distinct beacons, --subscribe-all")
        print("devices | advertisements | CPU s | ns per advertisement | peak MiB")
        for (devices, advertisements) in beaconCorpora {
            let path = "\(directory)/beacons-\(devices)-\(advertisements).pcap"
            var corpus = CaptureCorpus(advertisements: advertisements)
            corpus.devices = devices
            do {
                _ = try corpus.write(btsnoop: nil, pcap201: path)
            } catch {
                fatalError("cannot write \(path): \(error)")
            }
            defer { try? FileSystem.remove(path) }
            let f = measure(["replay", "--scenario", empty, "--subscribe-all", "--capture", path], runs: 1)
            print(
                "\(devices) | \(advertisements) | \(format(f.seconds)) | "
                    + "\(format(f.seconds * 1e9 / Double(advertisements))) | \(format(f.peakMiB))")
        }
    }

    func write(_ text: String, to path: String) {
        do {
            try OutputFile.write(Array(text.utf8), to: path)
        } catch {
            fatalError("cannot write \(path): \(error)")
        }
    }

    /// Three significant figures, or the whole number from 100 on.
    func format(_ x: Double) -> String {
        if x >= 100 { return String(Int(x.rounded())) }
        let scale = x >= 10 ? 10.0 : x >= 1 ? 100.0 : 1000.0
        return String((x * scale).rounded() / scale)
    }
}
