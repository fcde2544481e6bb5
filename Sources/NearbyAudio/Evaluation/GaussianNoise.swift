import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A seeded source of standard normal samples (SplitMix64 + Box–Muller): the same seed
/// gives the same noise on every machine.
public struct GaussianNoise: Sendable {
    private var state: UInt64
    private var spare: Double?

    public init(seed: UInt64) { state = seed }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }

    public mutating func next() -> Double {
        if let s = spare {
            spare = nil
            return s
        }
        var u = uniform()
        while u <= 0 { u = uniform() }
        let v = uniform()
        let r = (-2 * Double.log(u)).squareRoot()
        spare = r * Double.sin(2 * Double.pi * v)
        return r * Double.cos(2 * Double.pi * v)
    }
}
