#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension PreambleAcquisition.Lane {
    /// ln 2 (math.h's `M_LN2`), the median of an exponential distribution of mean 1.
    private static let ln2 = Float(0.693_147_180_559_945_309_42)

    /// Brings the median floor up to date with the data available before `end`.
    mutating func updateFloor(upTo end: Int) {
        while (floorChunks + 1) * Self.chunk <= end {
            let from = floorChunks * Self.chunk
            scratch.removeAll(keepingCapacity: true)
            for i in from..<(from + Self.chunk) { scratch.append(p(i)) }
            chunkMedians.append(Self.powerMedian(&scratch))
            if chunkMedians.count > Self.medianChunks { chunkMedians.removeFirst() }
            scratch = chunkMedians
            floorValue = median(&scratch) / Self.ln2
            floorChunks += 1
        }
        if floorChunks == 0 && !provisionalFloor && end > 0 {
            provisionalFloor = true
            // before the first full second: the median of what there is
            scratch.removeAll(keepingCapacity: true)
            for i in 0..<end { scratch.append(p(i)) }
            floorValue = Self.powerMedian(&scratch) / Self.ln2
        }
    }

    /// `median(&values)` of correlator powers, without the comparisons when it can (powers
    /// are never negative; NaN input falls back).
    private static func powerMedian(_ values: inout [Float]) -> Float {
        values.withUnsafeBufferPointer { medianOfNonNegative($0) } ?? median(&values)
    }
}
