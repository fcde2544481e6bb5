import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The root-raised-cosine pulse of NUT-I (NUT-5): roll-off α = 0.25,
/// time in chips, p(0) = 1 − α + 4α/π. Truncated by its users to |t| < 4 chips (NUT-6).
public enum RootRaisedCosine {
    public static let rollOff = 0.25

    /// p(t), t in chip periods.
    public static func value(_ t: Double) -> Double {
        let a = rollOff
        if abs(t) < 1e-9 { return 1 - a + 4 * a / Double.pi }
        if abs(abs(t) - 1 / (4 * a)) < 1e-9 {
            return a / 2.squareRoot()
                * ((1 + 2 / Double.pi) * Double.sin(Double.pi / (4 * a))
                    + (1 - 2 / Double.pi) * Double.cos(Double.pi / (4 * a)))
        }
        let numerator = Double.sin(Double.pi * t * (1 - a)) + 4 * a * t * Double.cos(Double.pi * t * (1 + a))
        return numerator / (Double.pi * t * (1 - (4 * a * t) * (4 * a * t)))
    }

    /// The receiver's matched filter at `samplesPerChip` samples per chip over ±`halfSpan`
    /// chips, normalised to unit energy.
    public static func matchedFilter(samplesPerChip: Int, halfSpan: Int) -> [Float] {
        let taps = (-halfSpan * samplesPerChip...halfSpan * samplesPerChip).map {
            value(Double($0) / Double(samplesPerChip))
        }
        let norm = taps.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return taps.map { Float($0 / norm) }
    }
}
