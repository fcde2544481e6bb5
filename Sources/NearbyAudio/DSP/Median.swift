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
