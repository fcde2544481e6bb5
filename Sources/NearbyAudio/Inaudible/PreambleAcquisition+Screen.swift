extension PreambleAcquisition.Lane {
    /// The screen energies Σq p(m + offsets[q]) of cells `from`…`from + count − 1`, each
    /// summed over q = 0…12 in order; four cells side by side, so that their chains of
    /// additions overlap.
    func energies(from: Int, count: Int, into out: UnsafeMutableBufferPointer<Float>) {
        guard from >= c.start && from + count - 1 + offsets[12] < c.end else {
            for j in 0..<count {
                var e: Float = 0
                for q in 0..<13 { e += p(from + j + offsets[q]) }
                out[j] = e
            }
            return
        }
        power.withUnsafeBufferPointer { pw in
            offsets.withUnsafeBufferPointer { off in
                let mask = self.mask
                var j = 0
                while j + 4 <= count {
                    var e0: Float = 0, e1: Float = 0, e2: Float = 0, e3: Float = 0
                    for q in 0..<13 {
                        let i = from + j + off[q]
                        e0 += pw[i & mask]
                        e1 += pw[(i + 1) & mask]
                        e2 += pw[(i + 2) & mask]
                        e3 += pw[(i + 3) & mask]
                    }
                    (out[j], out[j + 1], out[j + 2], out[j + 3]) = (e0, e1, e2, e3)
                    j += 4
                }
                while j < count {
                    var e: Float = 0
                    for q in 0..<13 { e += pw[(from + j + off[q]) & mask] }
                    out[j] = e
                    j += 1
                }
            }
        }
    }
}
