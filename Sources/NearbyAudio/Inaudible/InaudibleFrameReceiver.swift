import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Receives one NUT-I frame at an acquired preamble (docs/spec/nut-audio.md, "NUT-I" reception, steps 4–7):
/// refines timing and time scale, re-samples the frame from the decimated baseband, measures
/// the channel's power-delay profile on the preamble, demodulates the symbols with a
/// noncoherent RAKE, and decodes the byte layer.
struct InaudibleFrameReceiver {
    struct Reception {
        /// File time of preamble chip 0's centre, seconds.
        var chipZeroCentre: Double
        /// Time-scale error ε: chips arrived at Rc·(1+ε).
        var epsilon: Double
        /// Estimated in-band SNR (18.5–20 kHz), dB, from the symbol metrics.
        var snrDb: Double
        var decoded: NUTFrameCoding.Decoded?
    }

    static let samplesPerChip = 4
    static let pad = 64
    /// RAKE taps, grid samples relative to the preamble peak: −2…+12 chips.
    static let taps = -8...48

    let basebandRate: Double
    private let matchedFilter = RootRaisedCosine.matchedFilter(samplesPerChip: 4, halfSpan: 4)
    private let outputCount =
        4 * (NUTSequences.preambleChips + NUTSequences.symbolChips * NUTFrameCoding.maximumSymbolCount)
        + 2 * Self.pad + 64

    init(basebandRate: Double) { self.basebandRate = basebandRate }

    func receive(
        _ candidate: PreambleAcquisition.Candidate, acquisition: PreambleAcquisition,
        baseband: ComplexHistory
    ) -> Reception {
        let grid = PreambleAcquisition.gridRate
        let h = candidate.hypothesis
        let eps = PreambleAcquisition.hypotheses[h]
        // Timing: parabolic interpolation of S.
        let a = Double(candidate.before), b = Double(candidate.statistic), c = Double(candidate.after)
        let denominator = a - 2 * b + c
        let fraction = denominator < 0 ? max(-0.5, min(0.5, 0.5 * (a - c) / denominator)) : 0
        let peak = (Double(candidate.index) + fraction) / grid
        // Time scale: the mean phase step between the 13 segment correlations.
        let offsets = acquisition.offsets(hypothesis: h)
        var accRe = 0.0, accIm = 0.0
        var previous = (re: 0.0, im: 0.0)
        for q in 0..<13 {
            let v = acquisition.correlation(hypothesis: h, at: candidate.index + offsets[q])
            let z = (re: Double(NUTSequences.barker13[q] * v.re), im: Double(NUTSequences.barker13[q] * v.im))
            if q > 0 {
                accRe += z.re * previous.re + z.im * previous.im
                accIm += z.im * previous.re - z.re * previous.im
            }
            previous = z
        }
        let step = 60 / (grid * (1 + eps))
        let nu = Double.atan2(y: accIm, x: accRe) / (2 * Double.pi * step)
        let epsilon = eps + nu / InaudibleEncoder.carrierHz
        // Re-sample the frame region at 4 samples per chip on the refined time scale.
        let rate = grid * (1 + epsilon)
        let span = matchedFilter.count / 2
        let rawCount = outputCount + 2 * span
        let t0 = peak - Double(Self.pad + span) / rate
        var rawRe = [Float](repeating: 0, count: rawCount)
        var rawIm = [Float](repeating: 0, count: rawCount)
        let omega = -2 * Double.pi * InaudibleEncoder.carrierHz * epsilon
        for j in 0..<rawCount {
            let t = t0 + Double(j) / rate
            let v = baseband.interpolate(at: t * basebandRate)
            let phase = omega * t
            let cr = Float(Double.cos(phase)), ci = Float(Double.sin(phase))
            rawRe[j] = v.re * cr - v.im * ci
            rawIm[j] = v.re * ci + v.im * cr
        }
        var yRe = [Float](repeating: 0, count: outputCount)
        var yIm = [Float](repeating: 0, count: outputCount)
        for i in 0..<outputCount {
            var sr: Float = 0, si: Float = 0
            for k in 0..<matchedFilter.count {
                sr += matchedFilter[k] * rawRe[i + k]
                si += matchedFilter[k] * rawIm[i + k]
            }
            yRe[i] = sr
            yIm[i] = si
        }
        // Power-delay profile over the preamble; RAKE weights above 4× the median.
        let n0 = Self.pad
        let preamble = NUTSequences.preamble
        var profile = [Double]()
        for d in Self.taps {
            var sr: Float = 0, si: Float = 0
            if n0 + d >= 0 {
                for k in 0..<preamble.count {
                    sr += preamble[k] * yRe[n0 + d + 4 * k]
                    si += preamble[k] * yIm[n0 + d + 4 * k]
                }
            }
            profile.append(Double(sr * sr + si * si))
        }
        var sorted = profile
        let noise = median(&sorted) + 1e-30
        var weights = profile.map { max($0 - 4 * noise, 0) }
        let strongest = weights.max() ?? 0
        if strongest <= 0 {
            weights = Self.taps.map { $0 == 0 ? 1 : 0 }
        } else {
            weights = weights.map { $0 > 0.02 * strongest ? $0 : 0 }
        }
        let total = weights.reduce(0, +)
        var rake: [(delay: Int, weight: Float)] = []
        for (i, d) in Self.taps.enumerated() where weights[i] > 0 {
            rake.append((d, Float(weights[i] / total)))
        }
        // Symbols: descramble with G, sum each run of 4 chips (rows 4m of W64 are constant
        // over them), 16-point FWHT, weighted energies.
        var symbols: [Int] = []
        var reliability: [Float] = []
        var symbolEnergy: [(signal: Double, noise: Double)] = []
        var ur = [Float](repeating: 0, count: 16), ui = [Float](repeating: 0, count: 16)
        var metric = [Float](repeating: 0, count: 16)
        var single = [Float](repeating: 0, count: 16)
        // The SNR estimate uses the strongest tap alone: sampled at the chip centres the
        // matched filter's output has no inter-chip interference, so its other rows hold noise.
        let strongestTap = rake.max { $0.weight < $1.weight }?.delay ?? 0
        let scrambler = NUTSequences.longScrambler
        for i in 0..<NUTFrameCoding.maximumSymbolCount {
            for m in 0..<16 { metric[m] = 0 }
            let base = n0 + 4 * (NUTSequences.preambleChips + NUTSequences.symbolChips * i)
            for (d, w) in rake {
                for k2 in 0..<16 {
                    var sr: Float = 0, si: Float = 0
                    for j in 0..<4 {
                        let k = 4 * k2 + j
                        let idx = base + d + 4 * k
                        let g = scrambler[(64 * i + k) % 2047]
                        sr += g * yRe[idx]
                        si += g * yIm[idx]
                    }
                    ur[k2] = sr
                    ui[k2] = si
                }
                ur.withUnsafeMutableBufferPointer { r in
                    ui.withUnsafeMutableBufferPointer { q in fastWalshHadamard16(r.baseAddress!, q.baseAddress!) }
                }
                for m in 0..<16 { metric[m] += w * (ur[m] * ur[m] + ui[m] * ui[m]) }
                if d == strongestTap { for m in 0..<16 { single[m] = ur[m] * ur[m] + ui[m] * ui[m] } }
            }
            var best = 0, second: Float = 0
            for m in 1..<16 where metric[m] > metric[best] { best = m }
            var others: Float = 0
            for m in 0..<16 where m != best {
                second = max(second, metric[m])
                others += single[m]
            }
            symbols.append(best)
            reliability.append(metric[best] / (second + 1e-30))
            let noisePerRow = Double(others) / 15
            symbolEnergy.append((max(Double(single[best]) - noisePerRow, 0), noisePerRow))
        }
        let decoded = NUTFrameCoding.decode(symbols: symbols, reliability: reliability)
        // Es/N0 over the frame's symbols (25 when not decoded), minus
        // 10·log10(B·Ts) = 10·log10(1500 · 64/1200) = 19.03 dB.
        let used = symbolEnergy.prefix(NUTFrameCoding.symbolCount(tokenLength: decoded?.token.count ?? 6))
        let esN0 = used.reduce(0) { $0 + $1.signal } / max(used.reduce(0) { $0 + $1.noise }, 1e-30)
        let snr = min(
            10 * Double.log10(max(esN0, 1e-6)) - 10 * Double.log10(1500.0 * 64 / 1200), AudioTokenFrame.maximumSnrDb)
        return Reception(chipZeroCentre: peak, epsilon: epsilon, snrDb: snr, decoded: decoded)
    }
}
