extension PreambleAcquisition {
    /// The exact statistic of `lane` at grid index m.
    func coherent(lane: Lane, at m: Int, noise: Float) -> Float {
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

    func coherent(
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
