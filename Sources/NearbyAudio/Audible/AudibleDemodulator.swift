import Foundation

/// The streaming NUT-A receiver for one channel (docs/audio-format.md §6.3).
///
/// The band around 1.2–4.2 kHz is mixed down by 2.7 kHz and decimated to 4.8–4.9 kHz; the
/// chirp's matched filter runs by FFT overlap-save; its power is normalised by the median of
/// its 10 ms means over ±0.5 s (CFAR: under noise S ~ Exp(1)); local maxima with S ≥ 25
/// are chirp starts. For each, the time scale ε is searched (±0.6 %), and under the best
/// hypothesis each symbol slot's eight tones are correlated over the whole 45 ms envelope
/// with the envelope as window (the matched filter); the decision in each group of four is
/// the strongest tone, the reliability the product metric's best-to-second ratio. Decisions
/// between detections follow the same local rule as NUT-I.
public final class AudibleDemodulator: AudioDemodulator {
    public let mode = AudioMode.audible
    public let sampleRate: Int
    public let threshold: Float

    static let mixHz = 2_700
    static let window = 1.2
    static let decodeSpan = AudibleEncoder.frameDuration(tokenLength: 16) * 1.006 + 0.05

    private var converter: BasebandConverter
    private var baseband = ComplexHistory(capacity: 1 << 15)
    private let rate: Double
    private let fft: ComplexFFT
    private let templateRe: [Float]  // FFT of the chirp template, conjugated
    private let templateIm: [Float]
    private let hop: Int
    private var blockRe: [Float]
    private var blockIm: [Float]
    /// Next matched-filter output index.
    private var mfNext = 0
    private var power: [Float]
    private let powerMask: Int
    /// 10 ms means of the matched-filter power.
    private let meanLength: Int
    private var means: [Float] = []
    private var meansStart = 0  // block index of means[0]
    private var meanAccumulator: Float = 0
    private var meanCount = 0
    private var meanBlocks = 0  // completed blocks
    /// Next index whose statistic is evaluated, and the previous two statistics.
    private var evaluated = 0
    private var s1: Float = 0, s2: Float = 0
    /// A local maximum of S at or above the threshold, with its neighbours.
    struct ChirpDetection: Detection {
        var index: Int
        var statistic: Float
        var before: Float
        var after: Float
    }

    private var detections: DetectionQueue<ChirpDetection>
    private var frames: [AudioTokenFrame] = []
    private var finished = false

    public init(sampleRate: Int, threshold: Float = 25) {
        self.sampleRate = sampleRate
        self.threshold = threshold
        converter = BasebandConverter(
            sampleRate: sampleRate, carrierHz: Self.mixHz, cutoffHz: 1_900, filterSeconds: 0.008)
        rate = converter.outputRate
        detections = DetectionQueue(window: Int(Self.window * converter.outputRate))
        let length = Int((AudibleEncoder.chirpSeconds * rate).rounded())
        fft = ComplexFFT(size: 2048)
        hop = 2048 - length + 1
        // The chirp in baseband: e^(j2π((1200 − 2700) t + ½ k t²)) under its 5 ms ramps.
        let k = (AudibleEncoder.chirpEndHz - AudibleEncoder.firstToneHz) / AudibleEncoder.chirpSeconds
        let ramp = Int(AudibleEncoder.chirpRampSeconds * rate)
        var re = [Float](repeating: 0, count: 2048), im = [Float](repeating: 0, count: 2048)
        for i in 0..<length {
            let t = Double(i) / rate
            var w = 1.0
            if i < ramp { w = 0.5 - 0.5 * cos(Double.pi * Double(i) / Double(ramp)) }
            if length - 1 - i < ramp { w = 0.5 - 0.5 * cos(Double.pi * Double(length - 1 - i) / Double(ramp)) }
            let phase = 2 * Double.pi * ((AudibleEncoder.firstToneHz - Double(Self.mixHz)) * t + 0.5 * k * t * t)
            re[i] = Float(w * cos(phase))
            im[i] = Float(w * sin(phase))
        }
        fft.transform(&re, &im)
        templateRe = re
        templateIm = im.map { -$0 }
        blockRe = [Float](repeating: 0, count: 2048)
        blockIm = [Float](repeating: 0, count: 2048)
        power = [Float](repeating: 0, count: 1 << 15)
        powerMask = (1 << 15) - 1
        meanLength = Int((0.01 * rate).rounded())
    }

    public func process(_ samples: UnsafePointer<Float>, count: Int, stride: Int) {
        inSlices(count, of: Self.slice) { offset, n in
            converter.process(samples + offset * stride, count: n, stride: stride, into: &baseband)
            advance(final: false)
        }
    }

    /// Input samples handled per step.
    static let slice = 16_384

    public func finish() {
        guard !finished else { return }
        finished = true
        converter.finish(into: &baseband)
        advance(final: true)
    }

    public func takeFrames() -> [AudioTokenFrame] {
        defer { frames.removeAll() }
        return frames
    }

    private var halfWindowBlocks: Int { 50 }

    private func advance(final: Bool) {
        // Matched filter by overlap-save: outputs mfNext ..< mfNext + hop from 2048 inputs.
        let scale = 1 / Float(2048 * 2048)
        while mfNext + 2048 <= baseband.end || (final && mfNext < baseband.end) {
            for i in 0..<2048 {
                let v = baseband.value(mfNext + i)
                blockRe[i] = v.re
                blockIm[i] = v.im
            }
            fft.transform(&blockRe, &blockIm)
            for i in 0..<2048 {
                let r = blockRe[i] * templateRe[i] - blockIm[i] * templateIm[i]
                let q = blockRe[i] * templateIm[i] + blockIm[i] * templateRe[i]
                blockRe[i] = r
                blockIm[i] = q
            }
            fft.transform(&blockRe, &blockIm, inverse: true)
            let count = final ? min(hop, baseband.end - mfNext) : hop
            for i in 0..<count {
                let p = (blockRe[i] * blockRe[i] + blockIm[i] * blockIm[i]) * scale
                power[(mfNext + i) & powerMask] = p
                meanAccumulator += p
                meanCount += 1
                if meanCount == meanLength {
                    means.append(meanAccumulator / Float(meanLength))
                    meanBlocks += 1
                    meanAccumulator = 0
                    meanCount = 0
                }
            }
            mfNext += count
        }
        evaluate(final: final)
        decide(final: final)
    }

    private var scratch: [Float] = []

    /// S for every index whose block's ±0.5 s of means are known.
    private func evaluate(final: Bool) {
        let halfBlocks = halfWindowBlocks
        while evaluated < mfNext {
            let block = evaluated / meanLength
            if !final && block + halfBlocks >= meanBlocks { break }
            let lo = max(0, block - halfBlocks), hi = min(meanBlocks, block + halfBlocks + 1)
            scratch.removeAll(keepingCapacity: true)
            if lo >= meansStart {
                for b in lo..<hi { scratch.append(means[b - meansStart]) }
            }
            // No complete 10 ms mean in reach (a stream shorter than one block) means no noise
            // reference: S is taken as 0 there, not power / 1e-30 (which made every local
            // maximum a detection and sent the edge of a short clip through `receive`).
            let reference = scratch.isEmpty ? Float.infinity : median(&scratch) + 1e-30
            // every index of this block shares the reference
            let blockEnd = min(mfNext, (block + 1) * meanLength)
            while evaluated < blockEnd {
                let s = power[evaluated & powerMask] / reference
                if s1 >= threshold && s1 >= s2 && s1 > s {
                    detections.pending.append(ChirpDetection(index: evaluated - 1, statistic: s1, before: s2, after: s))
                }
                s2 = s1
                s1 = s
                evaluated += 1
            }
            // forget means no longer needed
            let needed = max(0, block - halfBlocks) - meansStart
            if needed > 256 {
                means.removeFirst(needed)
                meansStart += needed
            }
        }
    }

    private func decide(final: Bool) {
        while let chosen = detections.next(ready: { chosen, limit in
            final
                || (evaluated > limit + 1
                    && Double(baseband.end) / rate > Double(chosen.index) / rate + Self.decodeSpan)
        }) {
            let a = Double(chosen.before), b = Double(chosen.statistic), c = Double(chosen.after)
            let denominator = a - 2 * b + c
            let fraction = denominator < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / denominator)) : 0
            let reception = receive(peak: (Double(chosen.index) + fraction) / rate)
            let length = reception.decoded?.token.count ?? 6
            let duration = AudibleEncoder.frameDuration(tokenLength: length) / (1 + reception.epsilon)
            if let decoded = reception.decoded {
                frames.append(
                    AudioTokenFrame(
                        token: decoded.token, mode: .audible, start: reception.start, end: reception.start + duration,
                        clockOffsetPpm: reception.epsilon * 1e6, snrDb: reception.snrDb,
                        detection: Double(chosen.statistic),
                        correctedBytes: decoded.correctedBytes, channel: 0))
            }
            let from = chosen.index - Int(0.1 * rate)
            let to = chosen.index + Int(0.9 * duration * rate)
            detections.suppress(from: from, to: to)
        }
    }

    /// Demodulates and decodes the frame whose chirp's matched-filter peak is at `peak` seconds.
    ///
    /// The time scale ε is searched first (13 hypotheses from −0.6 % to +0.6 %, then two halving
    /// steps around the best): the hypothesis that gathers the most tone energy over all symbol
    /// slots wins. Its symbol decisions are decoded; ε is reported from a parabola through the
    /// last three hypotheses.
    private func receive(peak: Double) -> Reception {
        var best = (epsilon: 0.0, metric: -1.0)
        for step in -6...6 {
            let epsilon = Double(step) * 0.001
            let metric = measure(peak: peak, epsilon: epsilon, into: &trialEnergies)
            if metric > best.metric { best = (epsilon, metric) }
        }
        var neighbours = (below: 0.0, above: 0.0)
        var spacing = 0.001
        for _ in 0..<2 {
            spacing /= 2
            let below = measure(peak: peak, epsilon: best.epsilon - spacing, into: &trialEnergies)
            let above = measure(peak: peak, epsilon: best.epsilon + spacing, into: &trialEnergies)
            neighbours = (below, above)
            if below > best.metric && below >= above {
                neighbours = (
                    measure(peak: peak, epsilon: best.epsilon - 2 * spacing, into: &trialEnergies), best.metric
                )
                best = (best.epsilon - spacing, below)
            } else if above > best.metric {
                neighbours = (
                    best.metric, measure(peak: peak, epsilon: best.epsilon + 2 * spacing, into: &trialEnergies)
                )
                best = (best.epsilon + spacing, above)
            }
        }
        _ = measure(peak: peak, epsilon: best.epsilon, into: &energies)
        let curvature = neighbours.below - 2 * best.metric + neighbours.above
        let fraction = curvature < 0 ? max(-0.5, min(0.5, 0.5 * (neighbours.below - neighbours.above) / curvature)) : 0
        let epsilon = best.epsilon + fraction * spacing

        var symbols: [Int] = []
        var reliability: [Float] = []
        var slotSignal: [Double] = [], slotNoise: [Double] = []
        for i in 0..<NUTFrameCoding.maximumSymbolCount {
            let e = energies
            var low = 0, high = 4
            for g in 1..<4 where e[8 * i + g] > e[8 * i + low] { low = g }
            for g in 5..<8 where e[8 * i + g] > e[8 * i + high] { high = g }
            let value = 4 * low + (high - 4)
            symbols.append(value)
            var bestMetric: Float = 0, second: Float = 0
            for s in 0..<16 {
                let m = e[8 * i + (s >> 2)] * e[8 * i + 4 + (s & 3)]
                if s == value { bestMetric = m } else { second = max(second, m) }
            }
            reliability.append(bestMetric / (second + 1e-30))
            let lowNoise = Double(e[(8 * i)..<(8 * i + 4)].reduce(0, +) - e[8 * i + low]) / 3
            let highNoise = Double(e[(8 * i + 4)..<(8 * i + 8)].reduce(0, +) - e[8 * i + high]) / 3
            slotSignal.append(max(Double(e[8 * i + low]) - lowNoise, 0) + max(Double(e[8 * i + high]) - highNoise, 0))
            slotNoise.append(lowNoise + highNoise)
        }
        let decoded = NUTFrameCoding.decode(symbols: symbols, reliability: reliability)
        let length = decoded?.token.count ?? 6
        let count = NUTFrameCoding.symbolCount(tokenLength: length)
        let signal = slotSignal.prefix(count).reduce(0, +) / Double(count)
        let noise = slotNoise.prefix(count).reduce(0, +) / Double(count)
        return Reception(
            decoded: decoded, start: start(peak: peak, epsilon: epsilon), epsilon: epsilon,
            snrDb: snrDb(signal: signal, noise: noise, tokenLength: length))
    }

    struct Reception {
        var decoded: NUTFrameCoding.Decoded?
        var start: Double
        var epsilon: Double
        var snrDb: Double
    }

    /// Energies of the latest `measure` hypotheses, 8 per symbol slot (low group, high group).
    private var trialEnergies = [Float](repeating: 0, count: 8 * NUTFrameCoding.maximumSymbolCount)
    private var energies = [Float](repeating: 0, count: 8 * NUTFrameCoding.maximumSymbolCount)

    /// The frame's start for a matched-filter peak at `peak` under time scale ε. A linear
    /// chirp scaled by 1 + ε matches the template best when their frequencies agree in the
    /// middle of the chirp, which moves the peak earlier by ε · 4200 Hz / k (k = 30 kHz/s):
    /// 0.7 ms at ε = 0.5 %.
    private func start(peak: Double, epsilon: Double) -> Double {
        peak + epsilon * AudibleEncoder.chirpEndHz / Self.chirpRate
    }

    /// The band over which `snrDb` counts noise, Hz (1.1–4.3 kHz).
    static let snrBandHz = 3_200.0

    static let chirpRate = (AudibleEncoder.chirpEndHz - AudibleEncoder.firstToneHz) / AudibleEncoder.chirpSeconds

    /// The energy of each symbol slot's eight tones under time scale ε, into `out`; returns
    /// the sum over slots of the strongest tone of each group.
    ///
    /// Each tone is correlated over its whole 45 ms envelope, with the envelope itself as the
    /// window (the matched filter of a tone of known frequency: 3 dB more energy than the
    /// draft's 30 ms Hann window, docs/audio-format.md §2 item 8), at the tone's frequency scaled
    /// by 1 + ε and the slot's time scaled by 1 / (1 + ε).
    private func measure(peak: Double, epsilon: Double, into out: inout [Float]) -> Double {
        let scale = 1 + epsilon
        let t0 = start(peak: peak, epsilon: epsilon)
        let symbolsStart = AudibleEncoder.chirpSeconds + AudibleEncoder.gapSeconds
        let envelopeSeconds =
            AudibleEncoder.attackSeconds + AudibleEncoder.sustainSeconds + AudibleEncoder.releaseSeconds
        var total = 0.0
        let history = baseband
        for i in 0..<NUTFrameCoding.maximumSymbolCount {
            let slot = t0 + (symbolsStart + AudibleEncoder.symbolSeconds * Double(i)) / scale
            // The eight tones side by side, one SIMD lane each: phasors e^(−j2π f k / rate).
            let bank = i % 2
            var stepRe = SIMD8<Float>(), stepIm = SIMD8<Float>()
            for g in 0..<8 {
                let j = g < 4 ? bank + 2 * g : 8 + bank + 2 * (g - 4)
                let f =
                    (AudibleEncoder.firstToneHz + AudibleEncoder.toneSpacingHz * Double(j)) * scale - Double(Self.mixHz)
                stepRe[g] = Float(cos(-2 * Double.pi * f / rate))
                stepIm[g] = Float(sin(-2 * Double.pi * f / rate))
            }
            var pr = SIMD8<Float>(repeating: 1), pi = SIMD8<Float>()
            var sr = SIMD8<Float>(), si = SIMD8<Float>()
            // The slot's samples under the envelope, windowed and correlated as they are read.
            var n = Int((slot * rate).rounded(.up))
            while true {
                let u = (Double(n) / rate - slot) * scale
                if u >= envelopeSeconds { break }
                let w = Float(AudibleEncoder.envelope(u))
                let v = history.value(n)
                let xr = v.re * w, xi = v.im * w
                sr += xr * pr - xi * pi
                si += xr * pi + xi * pr
                let nr = pr * stepRe - pi * stepIm
                pi = pr * stepIm + pi * stepRe
                pr = nr
                n += 1
            }
            let energy = sr * sr + si * si
            var strongest: (low: Float, high: Float) = (0, 0)
            for g in 0..<8 {
                out[8 * i + g] = energy[g]
                if g < 4 {
                    strongest.low = max(strongest.low, energy[g])
                } else {
                    strongest.high = max(strongest.high, energy[g])
                }
            }
            total += Double(strongest.low + strongest.high)
        }
        return total
    }

    /// The in-band SNR (B = 3200 Hz, docs/audio-format.md §7.2) from the decided tones' energy
    /// above the other tones' (`signal`) and the other tones' mean energy (`noise`), both per
    /// slot, summed over the two groups. With the envelope w as window (Σw² = 38.75 ms · r at baseband rate r), a tone
    /// of
    /// amplitude a gives (a/2)²(Σw)² and noise of in-band power N gives N r Σw² / (2B); the
    /// frame's power is a²(0.1875 + 0.03875 S) / (0.12 + 0.05 S) for S symbols (the chirp has
    /// twice the tones' amplitude).
    private func snrDb(signal: Double, noise: Double, tokenLength: Int) -> Double {
        guard noise > 0 else { return AudioTokenFrame.maximumSnrDb }
        let sumW = 0.04 * rate, sumW2 = 0.03875 * rate  // Σw and Σw² of the 45 ms envelope
        let amplitudeSquared = 4 * (signal / 2) / (sumW * sumW)
        let noisePower = 2 * Self.snrBandHz * (noise / 2) / (rate * sumW2)
        let symbols = Double(NUTFrameCoding.symbolCount(tokenLength: tokenLength))
        let framePower = amplitudeSquared * (0.1875 + 0.03875 * symbols) / (0.12 + 0.05 * symbols)
        let snr = framePower / noisePower
        return min(10 * log10(max(snr, 1e-6)), AudioTokenFrame.maximumSnrDb)
    }
}
