/// The median of `values`: the element of rank `count / 2` (0-based) in ascending order, so
/// the upper of the two middle values when the count is even; 0 for none. `values` is
/// reordered in place. Values must not be NaN.
///
/// A selection (Hoare partitions around a median-of-three pivot), linear on average; after
/// 2·log₂(count) + 8 partitions that have not isolated the rank it sorts what is left, so
/// it is never worse than a sort.
func median<Value: BinaryFloatingPoint>(_ values: inout [Value]) -> Value {
    guard !values.isEmpty else { return 0 }
    let k = values.count / 2
    values.withUnsafeMutableBufferPointer { v in
        var lo = 0
        var hi = v.count - 1
        var budget = 2 * (Int.bitWidth - v.count.leadingZeroBitCount) + 8
        while lo < hi {
            if budget == 0 {
                var rest = UnsafeMutableBufferPointer(rebasing: v[lo...hi])
                rest.sort()
                return
            }
            budget -= 1
            let mid = lo + (hi - lo) / 2
            if v[mid] < v[lo] { v.swapAt(mid, lo) }
            if v[hi] < v[lo] { v.swapAt(hi, lo) }
            if v[hi] < v[mid] { v.swapAt(hi, mid) }
            let pivot = v[mid]
            var i = lo
            var j = hi
            while i <= j {
                while v[i] < pivot { i += 1 }
                while pivot < v[j] { j -= 1 }
                if i <= j {
                    v.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            // [lo, j] ≤ pivot, [i, hi] ≥ pivot, and anything between equals it.
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                return
            }
        }
    }
    return values[k]
}

/// The median of `values` (the element of rank `count / 2`, as `median` gives) when every
/// value is +0 or more (+∞ included) and none is NaN; nil otherwise. `values` is left as it
/// is.
///
/// A radix selection: the bit patterns of such floats order as the floats do, so the rank
/// is found by counting the values under each of 2,048 values of bits 21–31, then under each
/// of bits 10–20 among those that share the chosen top bits, then bits 0–9: three passes and
/// no data-dependent branches, where a selection by comparisons mispredicts about one branch
/// in two on noise.
func medianOfNonNegative(_ values: UnsafeBufferPointer<Float>) -> Float? {
    guard !values.isEmpty else { return 0 }
    var rank = values.count / 2
    return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2048) { counts in
        // Pass 1: bits 21–31 of every value (a sign bit or NaN payload puts it above +∞).
        counts.initialize(repeating: 0)
        var largest: UInt32 = 0
        for v in values {
            let bits = v.bitPattern
            largest = max(largest, bits)
            counts[Int(bits >> 21)] &+= 1
        }
        guard largest <= Float.infinity.bitPattern else { return nil }
        var prefix = UInt32(select(counts, 2048, &rank))
        // Pass 2: bits 10–20 of the values under the chosen 11 top bits.
        counts.initialize(repeating: 0)
        for v in values where v.bitPattern >> 21 == prefix {
            counts[Int((v.bitPattern >> 10) & 0x7FF)] &+= 1
        }
        prefix = prefix << 11 | UInt32(select(counts, 2048, &rank))
        // Pass 3: bits 0–9 of the values under the chosen 22 top bits.
        counts.initialize(repeating: 0)
        for v in values where v.bitPattern >> 10 == prefix {
            counts[Int(v.bitPattern & 0x3FF)] &+= 1
        }
        return Float(bitPattern: prefix << 10 | UInt32(select(counts, 1024, &rank)))
    }
}

/// The bucket among the first `buckets` of `counts` that holds the value of rank `rank`
/// (0-based), leaving `rank` as its rank within that bucket.
private func select(_ counts: UnsafeMutableBufferPointer<Int32>, _ buckets: Int, _ rank: inout Int) -> Int {
    for b in 0..<buckets {
        let n = Int(counts[b])
        if rank < n { return b }
        rank -= n
    }
    preconditionFailure("the rank is within the counted values")
}
