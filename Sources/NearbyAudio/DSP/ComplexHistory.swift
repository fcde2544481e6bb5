/// A ring of complex samples addressed by absolute sample index: the last `capacity`
/// samples of a stream stay readable while memory stays constant.
struct ComplexHistory {
    private(set) var real: [Float]
    private(set) var imaginary: [Float]
    private let mask: Int
    /// Absolute index of the next sample to be appended (= samples appended so far).
    private(set) var end = 0

    /// `capacity` is rounded up to a power of two.
    init(capacity: Int) {
        var size = 1
        while size < capacity { size <<= 1 }
        real = [Float](repeating: 0, count: size)
        imaginary = [Float](repeating: 0, count: size)
        mask = size - 1
    }

    var capacity: Int { mask + 1 }
    /// The oldest absolute index still held.
    var start: Int { max(0, end - capacity) }

    @inline(__always)
    mutating func append(_ re: Float, _ im: Float) {
        real[end & mask] = re
        imaginary[end & mask] = im
        end += 1
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
}
