import Foundation

/// The streaming NUT-A receiver for one channel (docs/audio-format.md §6.3).
///
/// The band around 1.2–4.2 kHz is mixed down by 2.7 kHz and decimated to 4.8–4.9 kHz; the
/// chirp's matched filter runs by FFT overlap-save; its power is normalised by the median of
/// its 10 ms means over ±0.5 s (CFAR: under noise S ~ Exp(1)); local maxima with S ≥ 25
/// are chirp starts. For each, symbol i's tones are measured over a 30 ms Hann window
/// starting 7.5 ms into the symbol, each tone as the largest of three DFT bins (−33, 0,
/// +33 Hz: drift up to 0.5 % at 4.2 kHz); the decision in each group of four is the
/// strongest tone, the reliability the product metric's best-to-second ratio. Decisions
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
    private let templateRe: [Float]   // FFT of the chirp template, conjugated
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
    private var meansStart = 0        // block index of means[0]
    private var meanAccumulator: Float = 0
    private var meanCount = 0
    private var meanBlocks = 0        // completed blocks
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
    private let symbolWindow: [Float]
    /// Per tone j (0…15) and offset (−33, 0, +33 Hz): e^(−j2π f k / rate) over the window.
    private let toneRe: [[Float]]
    private let toneIm: [[Float]]

    public init(sampleRate: Int, threshold: Float = 25) {
        self.sampleRate = sampleRate
        self.threshold = threshold
        converter = BasebandConverter(sampleRate: sampleRate, carrierHz: Self.mixHz, cutoffHz: 1_900, filterSeconds: 0.008)
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
        let n = Int((AudibleEncoder.symbolWindowSeconds * rate).rounded())
        symbolWindow = (0..<n).map { Float(0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(n - 1))) }
        var tr: [[Float]] = [], ti: [[Float]] = []
        let rate = self.rate
        for j in 0..<16 {
            for offset in [-33.0, 0, 33] {
                let f = AudibleEncoder.firstToneHz + AudibleEncoder.toneSpacingHz * Double(j) - Double(Self.mixHz) + offset
                tr.append((0..<n).map { Float(cos(-2 * Double.pi * f * Double($0) / rate)) })
                ti.append((0..<n).map { Float(sin(-2 * Double.pi * f * Double($0) / rate)) })
            }
        }
        toneRe = tr
        toneIm = ti
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
            let reference = median(&scratch) + 1e-30
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
            final || (evaluated > limit + 1 && Double(baseband.end) / rate > Double(chosen.index) / rate + Self.decodeSpan)
        }) {
            let a = Double(chosen.before), b = Double(chosen.statistic), c = Double(chosen.after)
            let denominator = a - 2 * b + c
            let fraction = denominator < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / denominator)) : 0
            let start = (Double(chosen.index) + fraction) / rate
            let (decoded, snr) = receive(start: start)
            let length = decoded?.token.count ?? 6
            let duration = AudibleEncoder.frameDuration(tokenLength: length)
            if let decoded {
                frames.append(AudioTokenFrame(
                    token: decoded.token, mode: .audible, start: start, end: start + duration, clockOffsetPpm: 0,
                    snrDb: snr, detection: Double(chosen.statistic), correctedBytes: decoded.correctedBytes, channel: 0))
            }
            let from = chosen.index - Int(0.1 * rate)
            let to = chosen.index + Int(0.9 * duration * rate)
            detections.suppress(from: from, to: to)
        }
    }

    /// Demodulates and decodes the frame whose chirp starts at `start` seconds.
    private func receive(start: Double) -> (NUTFrameCoding.Decoded?, Double) {
        var symbols: [Int] = []
        var reliability: [Float] = []
        var signal = 0.0, noise = 0.0
        var energies = [Float](repeating: 0, count: 8)
        let n = symbolWindow.count
        for i in 0..<NUTFrameCoding.maximumSymbolCount {
            let t = start + AudibleEncoder.chirpSeconds + AudibleEncoder.gapSeconds
                + AudibleEncoder.symbolSeconds * Double(i) + AudibleEncoder.symbolWindowOffsetSeconds
            let first = Int((t * rate).rounded())
            let bank = i % 2
            for g in 0..<8 {
                let j = g < 4 ? bank + 2 * g : 8 + bank + 2 * (g - 4)
                var best: Float = 0
                for o in 0..<3 {
                    let cr = toneRe[3 * j + o], ci = toneIm[3 * j + o]
                    var sr: Float = 0, si: Float = 0
                    for k in 0..<n {
                        let v = baseband.value(first + k)
                        let xr = v.re * symbolWindow[k], xi = v.im * symbolWindow[k]
                        sr += xr * cr[k] - xi * ci[k]
                        si += xr * ci[k] + xi * cr[k]
                    }
                    best = max(best, sr * sr + si * si)
                }
                energies[g] = best
            }
            var low = 0, high = 4
            for g in 1..<4 where energies[g] > energies[low] { low = g }
            for g in 5..<8 where energies[g] > energies[high] { high = g }
            symbols.append(4 * low + (high - 4))
            var metric: [Float] = []
            for s in 0..<16 { metric.append(energies[s >> 2] * energies[4 + (s & 3)]) }
            let bestMetric = metric[4 * low + high - 4]
            var second: Float = 0
            for s in 0..<16 where s != 4 * low + high - 4 { second = max(second, metric[s]) }
            reliability.append(bestMetric / (second + 1e-30))
            let lowNoise = Double(energies[0..<4].reduce(0, +) - energies[low]) / 3
            let highNoise = Double(energies[4..<8].reduce(0, +) - energies[high]) / 3
            signal += max(Double(energies[low]) - lowNoise, 0) + max(Double(energies[high]) - highNoise, 0)
            noise += lowNoise + highNoise
        }
        let decoded = NUTFrameCoding.decode(symbols: symbols, reliability: reliability)
        // Per-tone energy ratio R → in-band SNR (B = 3200 Hz): SNR = R · 0.01 · 0.83 / 3200 · 100
        // (docs/audio-format.md §7.2): 10·log10(R) − 15.9 dB.
        let ratio = signal / max(noise, 1e-30)
        return (decoded, min(10 * log10(max(ratio, 1e-6)) - 15.9, AudioTokenFrame.maximumSnrDb))
    }
}
