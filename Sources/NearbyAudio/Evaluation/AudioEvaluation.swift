import Dispatch
import Synchronization

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `nearby-conformance audio evaluate` measures (docs/spec/nut-audio.md, "Evaluation";
/// the tolerances NUT-38 to NUT-45): random tokens encoded at 48 kHz, put through seeded
/// channel conditions, decoded by the mode's demodulator; per condition and token length, how
/// many decoded, how many wrong tokens came out, the median timing error and the median
/// measured time-scale error. Results depend only on the seed, never on the number of worker
/// threads.
public struct AudioEvaluation: Sendable {
    public var mode: AudioMode
    public var tokenLengths: [Int]
    public var trials: Int
    public var seed: UInt64
    public var conditions: [ChannelCondition]
    /// When set, each trial that fails to decode its token is written here as a 16-bit WAV
    /// named `CONDITION-LENGTHB-TRIAL-TOKEN.wav` (spaces and `%` replaced), for inspection.
    public var failureDirectory: String?

    public init(
        mode: AudioMode, tokenLengths: [Int] = [6, 16], trials: Int = 40, seed: UInt64 = 1,
        conditions: [ChannelCondition]? = nil
    ) {
        self.mode = mode
        self.tokenLengths = tokenLengths
        self.trials = trials
        self.seed = seed
        self.conditions = conditions ?? Self.standardConditions(mode)
    }

    /// The SNR sweep's points for `mode`, dB.
    public static func sweep(_ mode: AudioMode) -> [Double] {
        mode == .audible ? [0, -2, -4, -5, -6, -7, -8, -9, -10, -11, -12] : [0, -2, -4, -5, -6, -7, -8, -9, -10, -12]
    }

    /// The conditions of the acceptance and the draft's tables.
    public static func standardConditions(_ mode: AudioMode) -> [ChannelCondition] {
        var list = [ChannelCondition(name: "clean")]
        list += sweep(mode).map { ChannelCondition(name: "awgn \(format($0))", snrDb: $0) }
        list += [
            ChannelCondition(name: "clock +0.5%", timeScale: 0.005),
            ChannelCondition(name: "clock -0.5%", timeScale: -0.005),
            ChannelCondition(name: "44.1k", recordingRate: 44_100),
            ChannelCondition(name: "44.1k clock +0.1%", recordingRate: 44_100, timeScale: 0.001),
            ChannelCondition(name: "44.1k clock -0.1%", recordingRate: 44_100, timeScale: -0.001),
            ChannelCondition(name: "44.1k +0.1% awgn -6", snrDb: -6, recordingRate: 44_100, timeScale: 0.001),
            ChannelCondition(name: "44.1k -0.4% awgn -6", snrDb: -6, recordingRate: 44_100, timeScale: -0.004),
            ChannelCondition(name: "reverb", reverb: .heavy),
            ChannelCondition(name: "reverb awgn -4", snrDb: -4, reverb: .heavy),
            ChannelCondition(name: "level -50 dBFS", levelDbfs: -50),
            ChannelCondition(name: "level -30 dBFS awgn -6", snrDb: -6, levelDbfs: -30),
        ]
        return list
    }

    static func format(_ x: Double) -> String { x == x.rounded() ? String(Int(x)) : String(x) }

    /// One condition and token length.
    public struct Row: Sendable, Equatable {
        public var condition: String
        public var snrDb: Double?
        public var tokenLength: Int
        public var trials: Int
        public var decoded: Int
        /// Frames reported with a token other than the one sent.
        public var wrong: Int
        /// Median |start − true start| over decoded trials, µs (nil: none decoded).
        public var medianTimingErrorMicros: Double?
        public var medianClockOffsetPpm: Double?
        public var medianSnrEstimateDb: Double?
    }

    struct Trial {
        var decoded = false
        var wrong = 0
        var timingError: Double?
        var ppm: Double?
        var snr: Double?
    }

    /// Runs every condition × length × trial on `jobs` threads.
    public func run(jobs: Int = 1, progress: (@Sendable (Int, Int) -> Void)? = nil) -> [Row] {
        let cells = conditions.indices.flatMap { c in tokenLengths.map { (c, $0) } }
        let total = cells.count * trials
        let results = ResultBox(count: total)
        let workers = max(1, jobs)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            var i = worker
            while i < total {
                let (c, length) = cells[i / trials]
                results.set(i, trial(condition: conditions[c], length: length, index: i % trials))
                if worker == 0 { progress?(results.done, total) }
                i += workers
            }
        }
        return cells.enumerated().map { cell, pair in
            let slice = (0..<trials).map { results.get(cell * trials + $0) }
            let condition = conditions[pair.0]
            func med(_ values: [Double]) -> Double? {
                guard !values.isEmpty else { return nil }
                var v = values
                return median(&v)
            }
            return Row(
                condition: condition.name, snrDb: condition.snrDb, tokenLength: pair.1, trials: trials,
                decoded: slice.filter(\.decoded).count, wrong: slice.reduce(0) { $0 + $1.wrong },
                medianTimingErrorMicros: med(slice.compactMap(\.timingError)),
                medianClockOffsetPpm: med(slice.compactMap(\.ppm)),
                medianSnrEstimateDb: med(slice.compactMap(\.snr)))
        }
    }

    /// The seed of one trial: a hash of the run's seed, the condition's name, the token length
    /// and the trial index, so a trial does not change when other conditions are filtered out.
    func trialSeed(condition: String, length: Int, index: Int) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a, 64 bits
        for byte in condition.utf8 + [UInt8(length)] {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        var g = GaussianNoise(seed: seed ^ hash ^ UInt64(index) &* 0x9E37_79B9)
        return UInt64(g.uniform() * Double(UInt64.max >> 11)) ^ UInt64(index)
    }

    func trial(condition: ChannelCondition, length: Int, index: Int) -> Trial {
        var noise = GaussianNoise(seed: trialSeed(condition: condition.name, length: length, index: index))
        let token = (0..<length).map { _ in UInt8(noise.uniform() * 256) }
        let lead = 0.3 + 0.5 * noise.uniform()
        let encodedRate = 48_000.0
        let frame =
            mode == .audible
            ? (try? AudibleEncoder(sampleRate: encodedRate).samples(token: token)) ?? []
            : (try? InaudibleEncoder(sampleRate: encodedRate).samples(token: token)) ?? []
        let recording = condition.apply(frame: frame, encodedRate: encodedRate, lead: lead, mode: mode, noise: &noise)
        let rate = Int(condition.recordingRate)
        let demodulator: any StridedAudioDemodulator =
            mode == .audible
            ? AudibleDemodulator(sampleRate: rate) : InaudibleDemodulator(sampleRate: rate)
        recording.withUnsafeBufferPointer { demodulator.process($0.baseAddress!, count: $0.count, stride: 1) }
        demodulator.finish()
        let frames = demodulator.takeFrames()
        var result = Trial()
        defer {
            if !result.decoded, let failureDirectory {
                let hex = token.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                let name = "\(condition.name)-\(length)B-\(index)-\(hex)"
                    .map { $0 == " " || $0 == "%" || $0 == "/" ? "_" : $0 }
                let path = failureDirectory + "/" + String(name) + ".wav"
                if let writer = try? SoundFileWriter(path: path, sampleRate: rate) {
                    try? writer.write(recording)
                    try? writer.close()
                }
            }
        }
        let offset = mode == .audible ? 0 : InaudibleEncoder.chipZeroOffset
        let trueStart = (Double(Int(lead * encodedRate)) / encodedRate + offset) / (1 + condition.timeScale)
        for f in frames {
            if f.token == token && !result.decoded {
                result.decoded = true
                result.timingError = abs(f.start - trueStart) * 1e6
                result.ppm = f.clockOffsetPpm
                result.snr = f.snrDb
            } else if f.token != token {
                result.wrong += 1
            }
        }
        return result
    }

    /// The in-band SNR at which `rows` (this evaluation's AWGN sweep for `length`) still
    /// decode 95 %, interpolated linearly between the sweep's points; nil when the sweep
    /// does not cross 95 %.
    public static func snrAt95(_ rows: [Row], length: Int) -> Double? {
        let sweep = rows.filter { $0.tokenLength == length && $0.condition.hasPrefix("awgn") && $0.snrDb != nil }
            .sorted { $0.snrDb! > $1.snrDb! }
        for (a, b) in zip(sweep, sweep.dropFirst()) {
            let ra = Double(a.decoded) / Double(a.trials), rb = Double(b.decoded) / Double(b.trials)
            if ra >= 0.95 && rb < 0.95 {
                return a.snrDb! + (b.snrDb! - a.snrDb!) * (ra - 0.95) / (ra - rb)
            }
        }
        return nil
    }

    /// Decodes `seconds` of white noise (16-bit, 48 kHz) with both demodulators; returns the
    /// tokens reported (there should be none).
    public static func noiseOnly(seconds: Double, seed: UInt64) -> [AudioTokenFrame] {
        var noise = GaussianNoise(seed: seed)
        let rate = 48_000
        let demodulators: [any StridedAudioDemodulator] = [
            InaudibleDemodulator(sampleRate: rate), AudibleDemodulator(sampleRate: rate),
        ]
        var block = [Float](repeating: 0, count: 48_000)
        var frames: [AudioTokenFrame] = []
        var remaining = Int(seconds * Double(rate))
        while remaining > 0 {
            let n = min(block.count, remaining)
            for i in 0..<n { block[i] = (Float(0.1 * noise.next()) * 32767).rounded() / 32767 }
            block.withUnsafeBufferPointer { p in
                for d in demodulators {
                    d.process(p.baseAddress!, count: n, stride: 1)
                    frames += d.takeFrames()
                }
            }
            remaining -= n
        }
        for d in demodulators {
            d.finish()
            frames += d.takeFrames()
        }
        return frames
    }
}

/// Results written by several threads, each to its own slot.
private final class ResultBox: Sendable {
    private let state: Mutex<(values: [AudioEvaluation.Trial], done: Int)>

    init(count: Int) { state = Mutex((Array(repeating: .init(), count: count), 0)) }

    var done: Int { state.withLock { $0.done } }

    func set(_ i: Int, _ t: AudioEvaluation.Trial) {
        state.withLock {
            $0.values[i] = t
            $0.done += 1
        }
    }

    func get(_ i: Int) -> AudioEvaluation.Trial { state.withLock { $0.values[i] } }
}
