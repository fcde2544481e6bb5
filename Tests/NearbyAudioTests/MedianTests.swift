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
}
