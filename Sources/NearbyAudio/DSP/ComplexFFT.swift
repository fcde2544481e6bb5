import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An iterative radix-2 complex FFT of a fixed power-of-two size, with precomputed twiddles
/// and bit-reversal table; in place on split real/imaginary arrays.
struct ComplexFFT {
    let size: Int
    private let cosTable: [Float]
    private let sinTable: [Float]
    private let reversed: [Int]

    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "FFT size must be a power of two")
        self.size = size
        cosTable = (0..<size / 2).map { Float(Double.cos(2 * Double.pi * Double($0) / Double(size))) }
        sinTable = (0..<size / 2).map { Float(-Double.sin(2 * Double.pi * Double($0) / Double(size))) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { i in
            var r = 0
            for b in 0..<bits where i & (1 << b) != 0 { r |= 1 << (bits - 1 - b) }
            return r
        }
    }

    /// Forward transform X[k] = Σ x[n] e^(−j2πkn/N); `inverse` uses e^(+j…) and no scaling.
    func transform(_ re: inout [Float], _ im: inout [Float], inverse: Bool = false) {
        let n = size
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { q in
                for i in 0..<n {
                    let j = reversed[i]
                    if j > i {
                        r.swapAt(i, j)
                        q.swapAt(i, j)
                    }
                }
                let sign: Float = inverse ? -1 : 1
                var half = 1
                while half < n {
                    let step = n / (2 * half)
                    var start = 0
                    while start < n {
                        for k in 0..<half {
                            let wr = cosTable[k * step], wi = sign * sinTable[k * step]
                            let a = start + k, b = a + half
                            let tr = r[b] * wr - q[b] * wi
                            let ti = r[b] * wi + q[b] * wr
                            r[b] = r[a] - tr
                            q[b] = q[a] - ti
                            r[a] += tr
                            q[a] += ti
                        }
                        start += 2 * half
                    }
                    half *= 2
                }
            }
        }
    }
}
