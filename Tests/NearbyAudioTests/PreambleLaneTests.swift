import NearbySynthesis
import Testing

@testable import NearbyAudio

/// The per-lane quantities of NUT-I acquisition (docs/spec/nut-audio.md, "NUT-I" reception) held against
/// their definitions: the power is |c[m]|², and the screen energy of cell m is
/// Σq p(m + offsets[q]) over q = 0…12, summed in that order, with p = 0 outside the history.
@Suite struct PreambleLaneTests {
    /// A lane fed `count` grid samples of seeded Gaussian noise, in uneven blocks.
    static func lane(fed count: Int) -> PreambleAcquisition.Lane {
        var rng = SeededGenerator(seed: 9)
        let re = (0..<count).map { _ in Float(rng.gaussian()) }, im = (0..<count).map { _ in Float(rng.gaussian()) }
        var lane = PreambleAcquisition.Lane(epsilon: 0.003)
        var i = 0
        for size in [1, 100, 4096, 57, 3000].cycled(toCover: count) {
            let n = min(size, count - i)
            re[i..<(i + n)].withUnsafeBufferPointer { r in
                im[i..<(i + n)].withUnsafeBufferPointer { lane.feed(re: r, im: $0) }
            }
            i += n
            if i == count { break }
        }
        return lane
    }

    @Test func powerIsTheSquaredMagnitudeOfEachCorrelation() {
        let lane = Self.lane(fed: 40_000)  // past the first wrap of the 32,768-cell history
        #expect(lane.c.end > PreambleAcquisition.Lane.capacity)
        for m in stride(from: lane.c.start, to: lane.c.end, by: 7) {
            let v = lane.c.value(m)
            #expect(lane.p(m).bitPattern == (v.re * v.re + v.im * v.im).bitPattern, "cell \(m)")
        }
    }

    @Test(arguments: [0, 1, 3, 4, 9, 256])
    func screenEnergiesAreTheSumsOfTheirThirteenSegmentPowers(count: Int) {
        let lane = Self.lane(fed: 20_000)
        // Cells well inside the history, then cells whose last segments fall past its end.
        for first in [lane.c.start + 5, lane.c.end - lane.offsets[12] - count / 2 - 1] {
            var out = [Float](repeating: .nan, count: max(count, 1))
            out.withUnsafeMutableBufferPointer { lane.energies(from: first, count: count, into: $0) }
            for j in 0..<count {
                var e: Float = 0
                for q in 0..<13 { e += lane.p(first + j + lane.offsets[q]) }
                #expect(out[j].bitPattern == e.bitPattern, "cell \(first + j)")
            }
        }
    }
}

extension Array {
    /// The elements repeated until at least `count` of them have been given.
    fileprivate func cycled(toCover count: Int) -> [Element] {
        var out: [Element] = []
        while out.count < count { out += self }
        return out
    }
}
