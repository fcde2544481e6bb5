import Foundation

extension PreambleAcquisition {
    /// The state of one time-scale hypothesis.
    struct Lane {
        let epsilon: Double
        let offsets: [Int]
        /// Derotation phasor and its per-sample step (Double: exact over hours).
        private var phasorRe = 1.0, phasorIm = 0.0
        private let stepRe: Double, stepIm: Double
        /// The last derotated grid samples (the correlator's window).
        private var yRe: [Float] = []
        private var yIm: [Float] = []
        private var yStart = 0  // absolute grid index of yRe[0]
        var c: ComplexHistory
        private var power: [Float]
        private var prefix: [Double]  // prefix[i & mask] = Σ p[0..<i]
        /// `power` and `prefix` grow with `c` (see `ComplexHistory`), up to `capacity`.
        private var mask: Int
        /// Next grid index whose S is to be evaluated.
        var evaluated = 0
        /// Median-based noise floor.
        private var chunkMedians: [Float] = []
        private var floorValue: Float = 0
        private var floorChunks = 0
        private var scratch: [Float] = []
        /// The last two statistics (for local maxima).
        var s1: Float = 0, s2: Float = 0
        private var provisionalFloor = false

        static let capacity = 1 << 15  // 6.8 s of grid samples
        static let chunk = 4800
        static let medianChunks = 16

        init(epsilon: Double) {
            self.epsilon = epsilon
            offsets = (0..<13).map { Int((60 * Double($0) / (1 + epsilon)).rounded()) }
            let w = -2 * Double.pi * InaudibleEncoder.carrierHz * epsilon / PreambleAcquisition.gridRate
            stepRe = cos(w)
            stepIm = sin(w)
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
            stepRe = 1
            stepIm = 0
            c = ComplexHistory(capacity: 1)
            power = []
            prefix = []
            mask = 0
        }

        @inline(__always) func p(_ i: Int) -> Float { i < c.end && i >= c.start ? power[i & mask] : 0 }

        /// Σ p over [lo, hi).
        @inline(__always) private func sum(_ lo: Int, _ hi: Int) -> Double { prefixAt(hi) - prefixAt(lo) }
        @inline(__always) private func prefixAt(_ i: Int) -> Double { i == 0 ? 0 : prefix[(i - 1) & mask] }

        mutating func feed(re: UnsafeBufferPointer<Float>, im: UnsafeBufferPointer<Float>) {
            for i in 0..<re.count {
                let xr = Double(re[i]), xi = Double(im[i])
                yRe.append(Float(xr * phasorRe - xi * phasorIm))
                yIm.append(Float(xr * phasorIm + xi * phasorRe))
                let nr = phasorRe * stepRe - phasorIm * stepIm
                phasorIm = phasorRe * stepIm + phasorIm * stepRe
                phasorRe = nr
            }
            let norm = (phasorRe * phasorRe + phasorIm * phasorIm).squareRoot()
            phasorRe /= norm
            phasorIm /= norm
            // c[m] for every m whose window m…m+56 is complete.
            let span = PreambleAcquisition.correlatorSpan
            var m = c.end
            let m15 = NUTSequences.m15
            while m + span < yStart + yRe.count {
                let base = m - yStart
                var sr: Float = 0, si: Float = 0
                for k in 0..<15 {
                    sr += m15[k] * yRe[base + 4 * k]
                    si += m15[k] * yIm[base + 4 * k]
                }
                let pw = sr * sr + si * si
                if _slowPath(m > mask && mask + 1 < Self.capacity) {
                    // Before the first wrap: index i is at position i, so growing appends.
                    power.append(contentsOf: repeatElement(0, count: mask + 1))
                    prefix.append(contentsOf: repeatElement(0, count: mask + 1))
                    mask = 2 * mask + 1
                }
                power[m & mask] = pw
                prefix[m & mask] = prefixAt(m) + Double(pw)
                c.append(sr, si)
                m += 1
            }
            let drop = c.end - yStart
            if drop > 0 {
                yRe.removeFirst(drop)
                yIm.removeFirst(drop)
                yStart += drop
            }
        }

        /// σ²[m] from the ±0.5 s window (clipped to the data) and the floor.
        func noise(at m: Int, available: Int) -> Float {
            let lo = max(m - PreambleAcquisition.noiseHalfWindow, 0, c.start)
            let hi = min(m + PreambleAcquisition.noiseHalfWindow, available)
            let local = hi > lo ? Float(sum(lo, hi) / Double(hi - lo)) : 0
            return max(local, floorValue) + 1e-30
        }

        /// Brings the median floor up to date with the data available before `end`.
        mutating func updateFloor(upTo end: Int) {
            while (floorChunks + 1) * Self.chunk <= end {
                let from = floorChunks * Self.chunk
                scratch.removeAll(keepingCapacity: true)
                for i in from..<(from + Self.chunk) { scratch.append(p(i)) }
                chunkMedians.append(median(&scratch))
                if chunkMedians.count > Self.medianChunks { chunkMedians.removeFirst() }
                scratch = chunkMedians
                floorValue = median(&scratch) / Float(M_LN2)
                floorChunks += 1
            }
            if floorChunks == 0 && !provisionalFloor && end > 0 {
                provisionalFloor = true
                // before the first full second: the median of what there is
                scratch.removeAll(keepingCapacity: true)
                for i in 0..<end { scratch.append(p(i)) }
                floorValue = median(&scratch) / Float(M_LN2)
            }
        }
    }
}
