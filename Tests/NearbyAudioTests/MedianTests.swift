import NearbySynthesis
import Testing

@testable import NearbyAudio

/// `median` against the standard library's sort: the element of rank count / 2.
@Suite struct MedianTests {
    static func sortedMedian(_ values: [Float]) -> Float { values.sorted()[values.count / 2] }

    @Test func everyShapeOfInputGivesTheSortedArraysMiddleElement() {
        var rng = SeededGenerator(seed: 27)
        var cases: [[Float]] = [[1], [2, 1], [3, 1, 2], [5, 5, 5, 5], [0, -0.0, 0]]
        for count in [2, 3, 10, 57, 100, 1_000, 12_000] {
            let random = (0..<count).map { _ in Float(rng.unit() * 1_000) }
            cases += [
                random, random.sorted(), random.sorted().reversed(),
                (0..<count).map { _ in Float(rng.upTo(3)) },  // few distinct values, many ties
                (0..<count).map { Float($0 % 2 == 0 ? $0 : count - $0) },  // organ pipe
            ]
        }
        for values in cases {
            var copy = values
            #expect(median(&copy) == Self.sortedMedian(values), "\(values.count) values")
            #expect(copy.sorted() == values.sorted(), "a reordering of the same values")
        }
        var none: [Float] = []
        #expect(median(&none) == 0)
    }

    @Test func radixSelectionGivesTheSortedArraysMiddleElementOfNonNegativeValues() {
        var rng = SeededGenerator(seed: 28)
        var cases: [[Float]] = [
            [0], [0, 0], [3, 0, 1], [.infinity, 1, 2], [.leastNonzeroMagnitude, 0, .leastNormalMagnitude],
            [.greatestFiniteMagnitude, .infinity, .infinity, 7],
        ]
        for count in [2, 3, 10, 57, 1_000, 4_800, 12_000] {
            let random = (0..<count).map { _ in Float(rng.unit() * rng.unit() * 1e6) }
            cases += [
                random, random.sorted(), random.sorted().reversed(),
                (0..<count).map { _ in Float(rng.upTo(3)) },  // ties, zeros among them
                // values that share their top 22 bits: the third pass decides
                (0..<count).map { _ in Float(bitPattern: 0x4000_0000 | UInt32(rng.upTo(1024))) },
                // subnormals: a hundredth of the least normal magnitude, scaled
                (0..<count).map { _ in Float(rng.gaussian()).magnitude * (Float.leastNormalMagnitude / 100) },
            ]
        }
        for values in cases {
            let found = values.withUnsafeBufferPointer { medianOfNonNegative($0) }
            #expect(found?.bitPattern == Self.sortedMedian(values).bitPattern, "\(values.count) values")
        }
        #expect([Float]().withUnsafeBufferPointer { medianOfNonNegative($0) } == 0)
    }

    @Test func radixSelectionDeclinesNegativeZeroNegativeAndNaNValues() {
        for odd: Float in [-0.0, -1, .nan, -.infinity] {
            let values: [Float] = [1, 2, odd, 3]
            #expect(values.withUnsafeBufferPointer { medianOfNonNegative($0) } == nil, "with \(odd)")
        }
    }
}
