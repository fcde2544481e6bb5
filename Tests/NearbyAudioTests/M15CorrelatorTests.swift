import Foundation
import NearbySynthesis
import Testing

@testable import NearbyAudio

/// `M15Correlator` against the formulas of docs/spec/nut-audio.md ("NUT-I" reception) written out one sample
/// at a time: the blocked loops must give the same bits, not merely close values.
@Suite struct M15CorrelatorTests {
    static func samples(_ count: Int, seed: UInt64) -> [Float] {
        var rng = SeededGenerator(seed: seed)
        return (0..<count).map { _ in Float(rng.gaussian()) }
    }

    @Test(arguments: [0, 1, 3, 4, 5, 8, 11, 64])
    func everyCorrelationIsTheM15SumOfItsWindow(count: Int) {
        let re = Self.samples(count + 56 + 3, seed: 1), im = Self.samples(count + 56 + 3, seed: 2)
        let from = 2
        var out = [Float](repeating: .nan, count: 2 * count)
        re.withUnsafeBufferPointer { r in
            im.withUnsafeBufferPointer { i in
                out.withUnsafeMutableBufferPointer { o in
                    M15Correlator.correlate(re: r, im: i, from: from, count: count, into: o)
                }
            }
        }
        for j in 0..<count {
            // c[m] = Σₖ m15[k] y[m + 4k], k = 0…14, summed in order from 0.
            var sr: Float = 0, si: Float = 0
            for k in 0..<15 {
                sr += NUTSequences.m15[k] * re[from + j + 4 * k]
                si += NUTSequences.m15[k] * im[from + j + 4 * k]
            }
            #expect(out[2 * j].bitPattern == sr.bitPattern, "re of window \(j)")
            #expect(out[2 * j + 1].bitPattern == si.bitPattern, "im of window \(j)")
        }
    }

    @Test func derotationMultipliesEachSampleByThePhasorItHasReached() {
        let n = 1_000
        let re = Self.samples(n, seed: 3), im = Self.samples(n, seed: 4)
        let w = -2 * Double.pi * 18_500 * 0.003 / 4_800
        let step = (cos(w), sin(w))
        var phasor = (1.0, 0.0)
        var outRe = [Float](repeating: .nan, count: n), outIm = outRe
        re.withUnsafeBufferPointer { r in
            im.withUnsafeBufferPointer { i in
                outRe.withUnsafeMutableBufferPointer { or in
                    outIm.withUnsafeMutableBufferPointer { oi in
                        M15Correlator.derotate(re: r, im: i, phasor: &phasor, step: step, into: or, oi)
                    }
                }
            }
        }
        // y = x · p, then p ← p · step, in Double; one renormalisation at the end.
        var (pr, pi) = (1.0, 0.0)
        for k in 0..<n {
            let xr = Double(re[k]), xi = Double(im[k])
            #expect(outRe[k].bitPattern == Float(xr * pr - xi * pi).bitPattern, "re of sample \(k)")
            #expect(outIm[k].bitPattern == Float(xr * pi + xi * pr).bitPattern, "im of sample \(k)")
            (pr, pi) = (pr * step.0 - pi * step.1, pr * step.1 + pi * step.0)
        }
        let norm = (pr * pr + pi * pi).squareRoot()
        #expect(phasor.0 == pr / norm && phasor.1 == pi / norm)
        #expect(abs(phasor.0 * phasor.0 + phasor.1 * phasor.1 - 1) < 1e-12)
    }
}
