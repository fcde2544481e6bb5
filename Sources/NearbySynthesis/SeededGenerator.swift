import RealModule

/// SplitMix64 (Steele, Lea, Flood 2014): a small, fast, seedable generator whose output is
/// the same on every platform, so a seed names one synthesized capture for good.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 53 bits.
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform integer in 0...upper.
    public mutating func upTo(_ upper: Int64) -> Int64 {
        upper <= 0 ? 0 : Int64(next() % UInt64(upper + 1))
    }

    /// Standard normal deviate (Box–Muller; one of the pair is used so the stream stays simple).
    public mutating func gaussian() -> Double {
        let u1 = max(unit(), 0x1p-60), u2 = unit()
        return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * Double.pi * u2)
    }
}
