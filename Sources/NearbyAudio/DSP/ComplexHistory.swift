/// A ring of complex samples addressed by absolute sample index: the last `capacity`
/// samples of a stream stay readable while memory stays constant.
///
/// The storage starts small and doubles as the stream grows, up to `capacity`: a short
/// stream (a clip, a fuzzer's input) does not pay for zeroing a ring sized for minutes.
/// Until the first wrap every index is stored at its own position, so growing is only
/// appending.
struct ComplexHistory {
    private(set) var real: [Float]
    private(set) var imaginary: [Float]
    private var mask: Int
    /// Samples held once the stream is long enough (a power of two).
    let capacity: Int
    /// Absolute index of the next sample to be appended (= samples appended so far).
    private(set) var end = 0

    /// Storage allocated at first (it grows from there).
    static let initialStorage = 1024

    /// `capacity` is rounded up to a power of two.
    init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        self.capacity = size
        let storage = min(size, Self.initialStorage)
        real = [Float](repeating: 0, count: storage)
        imaginary = [Float](repeating: 0, count: storage)
        mask = storage - 1
    }

    /// The oldest absolute index still held.
    var start: Int { max(0, end - capacity) }

    @inline(__always)
    mutating func append(_ re: Float, _ im: Float) {
        if _slowPath(end > mask && mask + 1 < capacity) { grow() }
        real[end & mask] = re
        imaginary[end & mask] = im
        end += 1
    }

    /// Appends `count` samples given as (re, im) pairs, as `append` one at a time would.
    mutating func append(pairs: UnsafeBufferPointer<Float>, count: Int) {
        precondition(pairs.count >= 2 * count)
        while end + count - 1 > mask && mask + 1 < capacity { grow() }
        let mask = self.mask, start = end
        real.withUnsafeMutableBufferPointer { re in
            for j in 0..<count { re[(start + j) & mask] = pairs[2 * j] }
        }
        imaginary.withUnsafeMutableBufferPointer { im in
            for j in 0..<count { im[(start + j) & mask] = pairs[2 * j + 1] }
        }
        end += count
    }

    /// Whether absolute index `i` is held.
    @inline(__always)
    func holds(_ i: Int) -> Bool { i >= start && i < end }

    /// Sample `i` (absolute); 0 outside the held range (before the stream or forgotten).
    @inline(__always)
    func value(_ i: Int) -> (re: Float, im: Float) {
        guard holds(i) else { return (0, 0) }
        return (real[i & mask], imaginary[i & mask])
    }

    @inline(__always) func re(_ i: Int) -> Float { real[i & mask] }
    @inline(__always) func im(_ i: Int) -> Float { imaginary[i & mask] }

    /// Doubles the storage (before the first wrap, when index i is at position i).
    private mutating func grow() {
        let size = mask + 1
        real.append(contentsOf: repeatElement(0, count: size))
        imaginary.append(contentsOf: repeatElement(0, count: size))
        mask = 2 * size - 1
    }
}
