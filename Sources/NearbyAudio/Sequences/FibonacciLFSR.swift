/// A Fibonacci linear-feedback shift register, the convention NUT v1's sequences are
/// defined in (NUT-10).
///
/// State s[0..d−1]. Each step outputs s[d−1], computes feedback = XOR of s[t−1] over the
/// polynomial's exponents t, and shifts s ← [feedback, s[0..d−2]]. The seed puts its bit i
/// into s[i].
public struct FibonacciLFSR: Sendable {
    private var state: [UInt8]
    private let exponents: [Int]

    /// `degree` d (1…32); `exponents`: the polynomial's exponents other than 0 (each in 1…d).
    public init(degree: Int, exponents: [Int], seed: UInt32 = 1) {
        precondition((1...32).contains(degree) && exponents.allSatisfy { (1...degree).contains($0) })
        state = (0..<degree).map { UInt8(truncatingIfNeeded: seed >> UInt32($0)) & 1 }
        self.exponents = exponents
    }

    /// The next output bit (0 or 1).
    public mutating func next() -> UInt8 {
        let out = state[state.count - 1]
        var feedback: UInt8 = 0
        for t in exponents { feedback ^= state[t - 1] }
        state.removeLast()
        state.insert(feedback, at: 0)
        return out
    }

    /// The next `count` output bits.
    public mutating func bits(_ count: Int) -> [UInt8] { (0..<count).map { _ in next() } }
}
