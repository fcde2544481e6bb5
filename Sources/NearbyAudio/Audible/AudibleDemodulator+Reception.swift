import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One frame's reception: the time-scale search, the tone measurement per symbol slot, and
/// the SNR estimate (docs/spec/nut-audio.md, "NUT-A" reception and "SNR estimates").
extension AudibleDemodulator {
    /// Demodulates and decodes the frame whose chirp's matched-filter peak is at `peak` seconds.
    ///
    /// The time scale ε is searched first (13 hypotheses from −0.6 % to +0.6 %, then two halving
    /// steps around the best): the hypothesis that gathers the most tone energy over all symbol
    /// slots wins. Its symbol decisions are decoded; ε is reported from a parabola through the
    /// last three hypotheses.
    func receive(peak: Double) -> Reception {
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

    /// The frame's start for a matched-filter peak at `peak` under time scale ε. A linear
    /// chirp scaled by 1 + ε matches the template best when their frequencies agree in the
    /// middle of the chirp, which moves the peak earlier by ε · 4200 Hz / k (k = 30 kHz/s):
    /// 0.7 ms at ε = 0.5 %.
    func start(peak: Double, epsilon: Double) -> Double {
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
    /// draft's 30 ms Hann window: docs/spec/nut-audio.md, "Changes from the draft", item 8), at
    /// the tone's frequency scaled by 1 + ε and the slot's time scaled by 1 / (1 + ε).
    func measure(peak: Double, epsilon: Double, into out: inout [Float]) -> Double {
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
                stepRe[g] = Float(Double.cos(-2 * Double.pi * f / rate))
                stepIm[g] = Float(Double.sin(-2 * Double.pi * f / rate))
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

    /// The in-band SNR (B = 3200 Hz, docs/spec/nut-audio.md, "SNR estimates") from the decided tones' energy
    /// above the other tones' (`signal`) and the other tones' mean energy (`noise`), both per
    /// slot, summed over the two groups. With the envelope w as window (Σw² = 38.75 ms · r at baseband rate r), a tone
    /// of
    /// amplitude a gives (a/2)²(Σw)² and noise of in-band power N gives N r Σw² / (2B); the
    /// frame's power is a²(0.1875 + 0.03875 S) / (0.12 + 0.05 S) for S symbols (the chirp has
    /// twice the tones' amplitude).
    func snrDb(signal: Double, noise: Double, tokenLength: Int) -> Double {
        guard noise > 0 else { return AudioTokenFrame.maximumSnrDb }
        let sumW = 0.04 * rate, sumW2 = 0.03875 * rate  // Σw and Σw² of the 45 ms envelope
        let amplitudeSquared = 4 * (signal / 2) / (sumW * sumW)
        let noisePower = 2 * Self.snrBandHz * (noise / 2) / (rate * sumW2)
        let symbols = Double(NUTFrameCoding.symbolCount(tokenLength: tokenLength))
        let framePower = amplitudeSquared * (0.1875 + 0.03875 * symbols) / (0.12 + 0.05 * symbols)
        let snr = framePower / noisePower
        return min(10 * Double.log10(max(snr, 1e-6)), AudioTokenFrame.maximumSnrDb)
    }
}
