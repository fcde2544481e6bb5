import Foundation

/// NUT-I preamble acquisition over a grid of time-scale hypotheses
/// (docs/audio-format.md §6.2, steps 2–3).
///
/// Input: the matched-filtered baseband on the nominal grid of 4 samples per chip (4800 Hz).
/// For each ε in {−5…+5}×10⁻³ the stream is derotated by e^(−j2π fc ε t), correlated with m15
/// (c[m] = Σₖ m15[k] y[m + 4k]), and the 13 Barker-covered segment values
/// zq = B[q] c[m + round(60q / (1+ε))] are combined coherently over 11 residual-frequency bins
/// (a 32-point DFT at bins −5…+5, 2.5 Hz apart):
/// S[m] = maxᵦ |Zᵦ|² / (13 σ²[m]), σ²[m] = the mean of |c|² over ±0.5 s, floored by the
/// median of |c|² over the last 16 s divided by ln 2. Under noise S ~ Exp(1).
///
/// Because |Zᵦ|² ≤ 13 Σq |zq|² (Cauchy–Schwarz), cells whose noncoherent sum Σq |zq|² / σ² is
/// below the threshold cannot reach it coherently and are skipped: an exact, lossless
/// screen that removes ~96 % of the work on noise.
struct PreambleAcquisition {
    /// A local maximum of S at or above the threshold.
    struct Candidate: Detection {
        /// Grid index of preamble chip 0's centre.
        var index: Int
        /// Time-scale hypothesis index (0…10, ε = (h − 5)·10⁻³).
        var hypothesis: Int
        var statistic: Float
        /// S one grid sample before and after (for parabolic interpolation).
        var before: Float
        var after: Float
    }

    static let gridRate = 4800.0
    static let hypotheses = (-5...5).map { Double($0) * 1e-3 }
    /// Half the noise window, grid samples (0.5 s).
    static let noiseHalfWindow = 2400
    static let correlatorSpan = 56  // 4 · 14
    static let bins = -5...5

    let threshold: Float
    private var lanes: [Lane]
    private let twiddleRe: [[Float]]  // [bin][q]
    private let twiddleIm: [[Float]]
    /// Grid samples received so far.
    private(set) var gridCount = 0

    init(threshold: Float) {
        self.threshold = threshold
        lanes = Self.hypotheses.map { Lane(epsilon: $0) }
        twiddleRe = Self.bins.map { b in (0..<13).map { q in Float(cos(-2 * Double.pi * Double(b * q) / 32)) } }
        twiddleIm = Self.bins.map { b in (0..<13).map { q in Float(sin(-2 * Double.pi * Double(b * q) / 32)) } }
    }

    /// The grid index up to which (exclusive) S has been evaluated.
    var evaluatedEnd: Int { lanes[0].evaluated }

    /// The 15-chip correlation of lane `h` at grid index `m` (0 when no longer held).
    func correlation(hypothesis h: Int, at m: Int) -> (re: Float, im: Float) { lanes[h].c.value(m) }

    /// Segment offsets of lane `h`.
    func offsets(hypothesis h: Int) -> [Int] { lanes[h].offsets }

    /// Feeds matched-filtered grid samples and appends new candidates.
    mutating func process(re: UnsafeBufferPointer<Float>, im: UnsafeBufferPointer<Float>, candidates: inout [Candidate])
    {
        var start = 0
        while start < re.count {
            // slices well inside the lanes' histories
            let end = min(re.count, start + 4096)
            let r = UnsafeBufferPointer(rebasing: re[start..<end]), i = UnsafeBufferPointer(rebasing: im[start..<end])
            gridCount += r.count
            for h in lanes.indices {
                lanes[h].feed(re: r, im: i)
                evaluate(lane: h, final: false, candidates: &candidates)
            }
            start = end
        }
    }

    /// Ends the stream: the remaining cells are evaluated with the windows clipped.
    mutating func finish(candidates: inout [Candidate]) {
        let zeros = [Float](repeating: 0, count: Self.correlatorSpan)
        zeros.withUnsafeBufferPointer { z in
            for h in lanes.indices {
                lanes[h].feed(re: z, im: z)
                evaluate(lane: h, final: true, candidates: &candidates)
            }
        }
    }

    private mutating func evaluate(lane h: Int, final: Bool, candidates: inout [Candidate]) {
        let threshold = self.threshold
        var lane = lanes[h]
        lanes[h] = Lane.placeholder  // avoid copy-on-write while mutating
        let cCount = lane.c.end
        let lastOffset = lane.offsets[12]
        let end = final ? cCount - Self.correlatorSpan - lastOffset : cCount - Self.noiseHalfWindow
        while lane.evaluated < end {
            let m = lane.evaluated
            lane.updateFloor(upTo: min(cCount, m + Self.noiseHalfWindow))
            let noise = lane.noise(at: m, available: cCount)
            var energy: Float = 0
            for q in 0..<13 { energy += lane.p(m + lane.offsets[q]) }
            var s: Float = 0
            if energy >= threshold * noise {
                s = coherent(lane: lane, at: m, noise: noise)
            }
            if lane.s1 >= threshold && lane.s1 >= lane.s2 && lane.s1 > s {
                // m − 1 is a local maximum; neighbours the screen skipped are computed exactly.
                let before =
                    lane.s2 > 0 || m < 2
                    ? lane.s2 : coherent(lane: lane, at: m - 2, noise: lane.noise(at: m - 2, available: cCount))
                let after = s > 0 ? s : coherent(lane: lane, at: m, noise: noise)
                candidates.append(
                    Candidate(index: m - 1, hypothesis: h, statistic: lane.s1, before: before, after: after))
            }
            lane.s2 = lane.s1
            lane.s1 = s
            lane.evaluated += 1
        }
        lanes[h] = lane
    }

    /// The exact statistic of `lane` at grid index m.
    private func coherent(lane: Lane, at m: Int, noise: Float) -> Float {
        var zr: (Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float, Float) = (
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
        )
        var zi = zr
        return withUnsafeMutableBytes(of: &zr) { zrBytes in
            withUnsafeMutableBytes(of: &zi) { ziBytes in
                coherent(
                    lane: lane, at: m, noise: noise,
                    zr: zrBytes.bindMemory(to: Float.self), zi: ziBytes.bindMemory(to: Float.self))
            }
        }
    }

    private func coherent(
        lane: Lane, at m: Int, noise: Float,
        zr: UnsafeMutableBufferPointer<Float>, zi: UnsafeMutableBufferPointer<Float>
    ) -> Float {
        for q in 0..<13 {
            let v = lane.c.value(m + lane.offsets[q])
            zr[q] = NUTSequences.barker13[q] * v.re
            zi[q] = NUTSequences.barker13[q] * v.im
        }
        var best: Float = 0
        for b in 0..<twiddleRe.count {
            var sr: Float = 0, si: Float = 0
            let wr = twiddleRe[b], wi = twiddleIm[b]
            for q in 0..<13 {
                sr += zr[q] * wr[q] - zi[q] * wi[q]
                si += zr[q] * wi[q] + zi[q] * wr[q]
            }
            best = max(best, sr * sr + si * si)
        }
        return best / (13 * noise)
    }
}

/// The median of `values` (reordered in place); 0 for none.
func median<Value: BinaryFloatingPoint>(_ values: inout [Value]) -> Value {
    guard !values.isEmpty else { return 0 }
    values.sort()
    return values[values.count / 2]
}
