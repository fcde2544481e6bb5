#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

extension PreambleAcquisition.Lane {
    /// Brings the median floor up to date with the data available before `end`.
    mutating func updateFloor(upTo end: Int) {
        while (floorChunks + 1) * Self.chunk <= end {
            let from = floorChunks * Self.chunk
            scratch.removeAll(keepingCapacity: true)
            for i in from..<(from + Self.chunk) { scratch.append(p(i)) }
            chunkMedians.append(Self.powerMedian(&scratch))
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
            floorValue = Self.powerMedian(&scratch) / Float(M_LN2)
        }
    }

    /// `median(&values)` of correlator powers, without the comparisons when it can (powers
    /// are never negative; NaN input falls back).
    private static func powerMedian(_ values: inout [Float]) -> Float {
        values.withUnsafeBufferPointer { medianOfNonNegative($0) } ?? median(&values)
    }
}
