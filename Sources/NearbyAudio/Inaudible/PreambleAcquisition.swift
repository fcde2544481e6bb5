import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// NUT-I preamble acquisition over a grid of time-scale hypotheses (docs/spec/nut-audio.md,
/// "NUT-I" reception, steps 2–3).
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
    let twiddleRe: [[Float]]  // [bin][q]
    let twiddleIm: [[Float]]
    /// Grid samples received so far.
    private(set) var gridCount = 0

    init(threshold: Float) {
        self.threshold = threshold
        lanes = Self.hypotheses.map { Lane(epsilon: $0) }
        twiddleRe = Self.bins.map { b in (0..<13).map { q in Float(Double.cos(-2 * Double.pi * Double(b * q) / 32)) } }
        twiddleIm = Self.bins.map { b in (0..<13).map { q in Float(Double.sin(-2 * Double.pi * Double(b * q) / 32)) } }
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

    /// Cells evaluated per block: their screen energies and noise levels are computed
    /// together before the cells are decided one by one.
    static let block = 256

    private mutating func evaluate(lane h: Int, final: Bool, candidates: inout [Candidate]) {
        let threshold = self.threshold
        var lane = lanes[h]
        lanes[h] = Lane.placeholder  // avoid copy-on-write while mutating
        let cCount = lane.c.end
        let lastOffset = lane.offsets[12]
        let end = final ? cCount - Self.correlatorSpan - lastOffset : cCount - Self.noiseHalfWindow
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * Self.block) { buffer in
            let energies = UnsafeMutableBufferPointer(rebasing: buffer[..<Self.block])
            let noises = UnsafeMutableBufferPointer(rebasing: buffer[Self.block...])
            while lane.evaluated < end {
                let first = lane.evaluated
                lane.updateFloor(upTo: min(cCount, first + Self.noiseHalfWindow))
                // The floor just brought up to date holds for every cell of the block.
                let count = min(end, first + Self.block, lane.nextFloorUpdate(available: cCount)) - first
                lane.energies(from: first, count: count, into: energies)
                for j in 0..<count { noises[j] = lane.noise(at: first + j, available: cCount) }
                for j in 0..<count {
                    let m = first + j, noise = noises[j]
                    var s: Float = 0
                    if energies[j] >= threshold * noise {
                        s = coherent(lane: lane, at: m, noise: noise)
                    }
                    if lane.s1 >= threshold && lane.s1 >= lane.s2 && lane.s1 > s {
                        // m − 1 is a local maximum; neighbours the screen skipped are computed exactly.
                        let before =
                            lane.s2 > 0 || m < 2
                            ? lane.s2
                            : coherent(lane: lane, at: m - 2, noise: lane.noise(at: m - 2, available: cCount))
                        let after = s > 0 ? s : coherent(lane: lane, at: m, noise: noise)
                        candidates.append(
                            Candidate(index: m - 1, hypothesis: h, statistic: lane.s1, before: before, after: after))
                    }
                    lane.s2 = lane.s1
                    lane.s1 = s
                }
                lane.evaluated += count
            }
        }
        lanes[h] = lane
    }
}

extension PreambleAcquisition {
    /// The state of one time-scale hypothesis.
    struct Lane {
        let epsilon: Double
        let offsets: [Int]
        /// Derotation phasor (re, im) and its per-sample step (Double: exact over hours).
        private var phasor = (1.0, 0.0)
        private let step: (Double, Double)
        /// The last derotated grid samples (the correlator's window).
        private var yRe: [Float] = []
        private var yIm: [Float] = []
        private var yStart = 0  // absolute grid index of yRe[0]
        var c: ComplexHistory
        private(set) var power: [Float]
        private var prefix: [Double]  // prefix[i & mask] = Σ p[0..<i]
        /// `power` and `prefix` grow with `c` (see `ComplexHistory`), up to `capacity`.
        private(set) var mask: Int
        /// Next grid index whose S is to be evaluated.
        var evaluated = 0
        /// Median-based noise floor.
        var chunkMedians: [Float] = []
        var floorValue: Float = 0
        var floorChunks = 0
        var scratch: [Float] = []
        /// The last two statistics (for local maxima).
        var s1: Float = 0, s2: Float = 0
        var provisionalFloor = false

        static let capacity = 1 << 15  // 6.8 s of grid samples
        static let chunk = 4800
        static let medianChunks = 16

        init(epsilon: Double) {
            self.epsilon = epsilon
            offsets = (0..<13).map { Int((60 * Double($0) / (1 + epsilon)).rounded()) }
            let w = -2 * Double.pi * InaudibleEncoder.carrierHz * epsilon / PreambleAcquisition.gridRate
            step = (Double.cos(w), Double.sin(w))
            c = ComplexHistory(capacity: Self.capacity)
            let storage = min(Self.capacity, ComplexHistory.initialStorage)
            power = [Float](repeating: 0, count: storage)
            prefix = [Double](repeating: 0, count: storage)
            mask = storage - 1
        }

        static let placeholder = Lane(placeholder: ())
        private init(placeholder: ()) {
            epsilon = 0
            offsets = []
            step = (1, 0)
            c = ComplexHistory(capacity: 1)
            power = []
            prefix = []
            mask = 0
        }

        @inline(__always) func p(_ i: Int) -> Float { i < c.end && i >= c.start ? power[i & mask] : 0 }

        /// The first cell whose `updateFloor(upTo: min(available, m + noiseHalfWindow))` would
        /// change the floor: `updateFloor` has been brought up to the cell before.
        func nextFloorUpdate(available: Int) -> Int {
            let next = (floorChunks + 1) * Self.chunk
            return next <= available ? next - PreambleAcquisition.noiseHalfWindow : Int.max
        }

        /// Σ p over [lo, hi).
        @inline(__always) private func sum(_ lo: Int, _ hi: Int) -> Double { prefixAt(hi) - prefixAt(lo) }
        @inline(__always) private func prefixAt(_ i: Int) -> Double { i == 0 ? 0 : prefix[(i - 1) & mask] }

        mutating func feed(re: UnsafeBufferPointer<Float>, im: UnsafeBufferPointer<Float>) {
            let start = yRe.count
            yRe.append(contentsOf: repeatElement(0, count: re.count))
            yIm.append(contentsOf: repeatElement(0, count: re.count))
            yRe.withUnsafeMutableBufferPointer { yr in
                yIm.withUnsafeMutableBufferPointer { yi in
                    M15Correlator.derotate(
                        re: re, im: im, phasor: &phasor, step: step,
                        into: UnsafeMutableBufferPointer(rebasing: yr[start...]),
                        UnsafeMutableBufferPointer(rebasing: yi[start...]))
                }
            }
            // c[m] for every m whose window m…m+56 is complete.
            let first = c.end
            let count = yStart + yRe.count - PreambleAcquisition.correlatorSpan - first
            if count > 0 {
                withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * count) { out in
                    yRe.withUnsafeBufferPointer { yr in
                        yIm.withUnsafeBufferPointer { yi in
                            M15Correlator.correlate(re: yr, im: yi, from: first - yStart, count: count, into: out)
                        }
                    }
                    store(powerOf: UnsafeBufferPointer(out), count: count, from: first)
                    c.append(pairs: UnsafeBufferPointer(out), count: count)
                }
            }
            let drop = c.end - yStart
            if drop > 0 {
                yRe.removeFirst(drop)
                yIm.removeFirst(drop)
                yStart += drop
            }
        }

        /// Stores |c[m]|² and the prefix sums of cells `from`…`from + count − 1`, given
        /// c as (re, im) pairs, growing `power` and `prefix` first as far as they will grow.
        private mutating func store(powerOf c: UnsafeBufferPointer<Float>, count: Int, from: Int) {
            while from + count - 1 > mask && mask + 1 < Self.capacity {
                // Before the first wrap: index i is at position i, so growing appends.
                power.append(contentsOf: repeatElement(0, count: mask + 1))
                prefix.append(contentsOf: repeatElement(0, count: mask + 1))
                mask = 2 * mask + 1
            }
            let mask = self.mask
            var sum = prefixAt(from)
            var power: [Float] = [], prefix: [Double] = []
            swap(&power, &self.power)
            swap(&prefix, &self.prefix)
            power.withUnsafeMutableBufferPointer { pw in
                prefix.withUnsafeMutableBufferPointer { pf in
                    for j in 0..<count {
                        let p = c[2 * j] * c[2 * j] + c[2 * j + 1] * c[2 * j + 1]
                        sum = sum + Double(p)
                        pw[(from + j) & mask] = p
                        pf[(from + j) & mask] = sum
                    }
                }
            }
            swap(&power, &self.power)
            swap(&prefix, &self.prefix)
        }

        /// σ²[m] from the ±0.5 s window (clipped to the data) and the floor.
        func noise(at m: Int, available: Int) -> Float {
            let lo = max(m - PreambleAcquisition.noiseHalfWindow, 0, c.start)
            let hi = min(m + PreambleAcquisition.noiseHalfWindow, available)
            let local = hi > lo ? Float(sum(lo, hi) / Double(hi - lo)) : 0
            return max(local, floorValue) + 1e-30
        }
    }
}
