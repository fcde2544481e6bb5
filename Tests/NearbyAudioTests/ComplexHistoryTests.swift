import Testing

@testable import NearbyAudio

@Suite struct ComplexHistoryTests {
    /// Appends 0, 1, 2, … (imaginary part negated) and checks every index against what a
    /// plain array of the whole stream says: held indices read back exactly, others read 0.
    func check(capacity: Int, appending count: Int) {
        var h = ComplexHistory(capacity: capacity)
        for i in 0..<count { h.append(Float(i), -Float(i)) }
        #expect(h.end == count)
        #expect(h.start == max(0, count - h.capacity))
        for i in -2..<(count + 2) {
            let v = h.value(i)
            if i >= h.start && i < count {
                #expect(v.re == Float(i) && v.im == -Float(i), "index \(i) of \(count), capacity \(h.capacity)")
            } else {
                #expect(v.re == 0 && v.im == 0, "index \(i) of \(count) is not held")
            }
        }
    }

    @Test func holdsEverySampleWhileItGrowsToItsCapacity() {
        for count in [0, 1, 1023, 1024, 1025, 2048, 4097, 8192] { check(capacity: 8192, appending: count) }
    }

    @Test func keepsTheLastCapacitySamplesOnceItWraps() {
        for count in [8193, 10_000, 3 * 8192 + 5] { check(capacity: 8192, appending: count) }
        check(capacity: 100, appending: 1000)  // rounded up to 128, below the initial storage
    }

    @Test func blocksOfPairsAreHeldAsSampleBySampleAppendsHoldThem() {
        // Blocks of uneven sizes across the growth steps and the wrap: every index reads back
        // what `check`'s sample-by-sample stream says.
        for capacity in [8192, 100] {
            var h = ComplexHistory(capacity: capacity)
            var next = 0
            for size in [0, 1, 7, 1000, 16, 1025, 3000, 1, 5000, 777] {
                let pairs = (next..<(next + size)).flatMap { [Float($0), -Float($0)] }
                pairs.withUnsafeBufferPointer { h.append(pairs: $0, count: size) }
                next += size
            }
            #expect(h.end == next)
            for i in (next - h.capacity - 2)..<(next + 2) {
                let v = h.value(i)
                let held = i >= max(0, next - h.capacity) && i < next
                #expect(v.re == (held ? Float(i) : 0) && v.im == (held ? -Float(i) : 0), "index \(i)")
            }
        }
    }

    @Test func capacityIsRoundedUpToAPowerOfTwo() {
        #expect(ComplexHistory(capacity: 1).capacity == 1)
        #expect(ComplexHistory(capacity: 100).capacity == 128)
        #expect(ComplexHistory(capacity: 1 << 15).capacity == 1 << 15)
    }
}
