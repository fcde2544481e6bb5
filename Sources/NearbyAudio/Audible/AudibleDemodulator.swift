import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The streaming NUT-A receiver for one channel (docs/spec/nut-audio.md, "NUT-A" reception).
///
/// The band around 1.2–4.2 kHz is mixed down by 2.7 kHz and decimated to 4.8–4.9 kHz; the
/// chirp's matched filter runs by FFT overlap-save; its power is normalised by the median of
/// its 10 ms means over ±0.5 s (CFAR: under noise S ~ Exp(1)); local maxima with S ≥ 25
/// are chirp starts. For each, the time scale ε is searched (±0.6 %), and under the best
/// hypothesis each symbol slot's eight tones are correlated over the whole 45 ms envelope
/// with the envelope as window (the matched filter); the decision in each group of four is
/// the strongest tone, the reliability the product metric's best-to-second ratio. Decisions
/// between detections follow the same local rule as NUT-I.
public final class AudibleDemodulator: BasebandReceiver, StridedAudioDemodulator {
    public let mode = AudioMode.audible
    public let sampleRate: Int
    public let threshold: Float

    static let mixHz = 2_700
    static let window = 1.2
    static let decodeSpan = AudibleEncoder.frameDuration(tokenLength: 16) * 1.006 + 0.05

    let rate: Double
    let fft: ComplexFFT
    let templateRe: [Float]  // FFT of the chirp template, conjugated
    let templateIm: [Float]
    let hop: Int
    var blockRe: [Float]
    var blockIm: [Float]
    /// Next matched-filter output index.
    var mfNext = 0
    var power: [Float]
    let powerMask: Int
    /// 10 ms means of the matched-filter power.
    let meanLength: Int
    var means: [Float] = []
    var meansStart = 0  // block index of means[0]
    var meanAccumulator: Float = 0
    var meanCount = 0
    var meanBlocks = 0  // completed blocks
    /// Next index whose statistic is evaluated, and the previous two statistics.
    var evaluated = 0
    var s1: Float = 0, s2: Float = 0
    /// A local maximum of S at or above the threshold, with its neighbours.
    struct ChirpDetection: Detection {
        var index: Int
        var statistic: Float
        var before: Float
        var after: Float
    }

    var detections: DetectionQueue<ChirpDetection>

    /// Energies of the latest `measure` hypotheses, 8 per symbol slot (low group, high group).
    var trialEnergies = [Float](repeating: 0, count: 8 * NUTFrameCoding.maximumSymbolCount)
    var energies = [Float](repeating: 0, count: 8 * NUTFrameCoding.maximumSymbolCount)

    public init(sampleRate: Int, threshold: Float = 25) {
        self.sampleRate = sampleRate
        self.threshold = threshold
        let converter = BasebandConverter(
            sampleRate: sampleRate, carrierHz: Self.mixHz, cutoffHz: 1_900, filterSeconds: 0.008)
        let rate = converter.outputRate
        self.rate = rate
        detections = DetectionQueue(window: Int(Self.window * rate))
        let length = Int((AudibleEncoder.chirpSeconds * rate).rounded())
        let fft = ComplexFFT(size: 2048)
        self.fft = fft
        hop = 2048 - length + 1
        // The chirp in baseband: e^(j2π((1200 − 2700) t + ½ k t²)) under its 5 ms ramps.
        let k = (AudibleEncoder.chirpEndHz - AudibleEncoder.firstToneHz) / AudibleEncoder.chirpSeconds
        let ramp = Int(AudibleEncoder.chirpRampSeconds * rate)
        var re = [Float](repeating: 0, count: 2048), im = [Float](repeating: 0, count: 2048)
        for i in 0..<length {
            let t = Double(i) / rate
            var w = 1.0
            if i < ramp { w = 0.5 - 0.5 * Double.cos(Double.pi * Double(i) / Double(ramp)) }
            if length - 1 - i < ramp { w = 0.5 - 0.5 * Double.cos(Double.pi * Double(length - 1 - i) / Double(ramp)) }
            let phase = 2 * Double.pi * ((AudibleEncoder.firstToneHz - Double(Self.mixHz)) * t + 0.5 * k * t * t)
            re[i] = Float(w * Double.cos(phase))
            im[i] = Float(w * Double.sin(phase))
        }
        fft.transform(&re, &im)
        templateRe = re
        templateIm = im.map { -$0 }
        blockRe = [Float](repeating: 0, count: 2048)
        blockIm = [Float](repeating: 0, count: 2048)
        power = [Float](repeating: 0, count: 1 << 15)
        powerMask = (1 << 15) - 1
        meanLength = Int((0.01 * rate).rounded())
        super.init(converter: converter)
    }

    var halfWindowBlocks: Int { 50 }

    override func advance(final: Bool) {
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

    var scratch: [Float] = []

    /// S for every index whose block's ±0.5 s of means are known.
    func evaluate(final: Bool) {
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

    func decide(final: Bool) {
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

}
