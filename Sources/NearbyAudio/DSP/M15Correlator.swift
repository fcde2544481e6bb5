/// The two steps of NUT-I acquisition that run on every grid sample of every time-scale
/// hypothesis (docs/spec/nut-audio.md, "NUT-I" reception, step 2): derotation by e^(−j2π fc ε t), and the
/// correlation with m15 at 4 grid samples per chip, c[m] = Σₖ m15[k] y[m + 4k], k = 0…14.
/// Both give, bit for bit, what one sample at a time gives.
enum M15Correlator {
    /// Writes `re`/`im` (complex samples) times the phasor, stepping the phasor by `step`
    /// after each sample, into `outRe`/`outIm` (as many samples), and leaves the phasor
    /// renormalised to magnitude 1. Phasor and step are (re, im) in Double, exact over hours
    /// of samples.
    static func derotate(
        re: UnsafeBufferPointer<Float>, im: UnsafeBufferPointer<Float>,
        phasor: inout (Double, Double), step: (Double, Double),
        into outRe: UnsafeMutableBufferPointer<Float>, _ outIm: UnsafeMutableBufferPointer<Float>
    ) {
        var (pr, pi) = phasor
        let (sr, si) = step
        for i in 0..<re.count {
            let xr = Double(re[i]), xi = Double(im[i])
            outRe[i] = Float(xr * pr - xi * pi)
            outIm[i] = Float(xr * pi + xi * pr)
            let nr = pr * sr - pi * si
            pi = pr * si + pi * sr
            pr = nr
        }
        let norm = (pr * pr + pi * pi).squareRoot()
        phasor = (pr / norm, pi / norm)
    }

    /// The correlations of the `count` windows that start at `from`, `from + 1`, … of
    /// `re`/`im` (which must hold each whole window: 57 samples), into `out` as (re, im)
    /// pairs. Each sum runs k = 0…14 from 0, as one window at a time would; four windows are
    /// summed side by side, so that their chains of additions overlap.
    static func correlate(
        re: UnsafeBufferPointer<Float>, im: UnsafeBufferPointer<Float>, from: Int, count: Int,
        into out: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(from >= 0 && from + count - 1 + 56 < min(re.count, im.count) && 2 * count <= out.count)
        NUTSequences.m15.withUnsafeBufferPointer { w in
            let yr = re.baseAddress!, yi = im.baseAddress!, o = out.baseAddress!
            var j = 0
            while j + 4 <= count {
                var r0: Float = 0, i0: Float = 0, r1: Float = 0, i1: Float = 0
                var r2: Float = 0, i2: Float = 0, r3: Float = 0, i3: Float = 0
                let base = from + j
                for k in 0..<15 {
                    let wk = w[k], b = base + 4 * k
                    r0 += wk * yr[b]
                    i0 += wk * yi[b]
                    r1 += wk * yr[b + 1]
                    i1 += wk * yi[b + 1]
                    r2 += wk * yr[b + 2]
                    i2 += wk * yi[b + 2]
                    r3 += wk * yr[b + 3]
                    i3 += wk * yi[b + 3]
                }
                (o[2 * j], o[2 * j + 1], o[2 * j + 2], o[2 * j + 3]) = (r0, i0, r1, i1)
                (o[2 * j + 4], o[2 * j + 5], o[2 * j + 6], o[2 * j + 7]) = (r2, i2, r3, i3)
                j += 4
            }
            while j < count {
                var sr: Float = 0, si: Float = 0
                let base = from + j
                for k in 0..<15 {
                    sr += w[k] * yr[base + 4 * k]
                    si += w[k] * yi[base + 4 * k]
                }
                (o[2 * j], o[2 * j + 1]) = (sr, si)
                j += 1
            }
        }
    }
}
