import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// NUT-I, the inaudible mode: one frame of BPSK chips at 1200 chip/s on a 19 250 Hz
/// carrier, root-raised-cosine shaped (α = 0.25, so 18 500–20 000 Hz), with 8 ms
/// raised-cosine ramps (NUT-3 to NUT-9, NUT-15 to NUT-17).
///
/// The waveform is defined in continuous time and sampled at any rate ≥ 44 100 Hz:
/// s(t) = A · w(t) · Σₖ aₖ p(t/Tc − 4 − k) · cos(2π fc t), t = 0 at the frame's first sample,
/// so chip k is centred at (4 + k) Tc and the frame lasts (chips + 8) Tc. Each pulse is
/// truncated to the open interval |t − (4 + k) Tc| < 4 Tc (NUT-6): at rates where chip instants fall
/// on samples (48 kHz: every 40th sample) the pulse's edge value p(±4) ≈ 0.021 is left out,
/// exactly, by integer arithmetic on the sample index.
public struct InaudibleEncoder: Sendable {
    /// Carrier frequency fc, Hz.
    public static let carrierHz = 19_250.0
    /// Chip rate Rc, chips per second.
    public static let chipRate = 1_200.0
    /// Pulse truncation, chips each side of the centre.
    public static let pulseHalfSpan = 4
    /// Raised-cosine ramp at each end of a frame, seconds.
    public static let rampSeconds = 0.008

    /// Output sample rate, Hz (≥ 44 100).
    public var sampleRate: Double
    /// Peak amplitude of the frame (full scale 1.0); the default is −1 dBFS.
    public var peak: Double

    public init(sampleRate: Double, peak: Double = InaudibleEncoder.defaultPeak) {
        self.sampleRate = sampleRate
        self.peak = peak
    }

    /// −1 dBFS.
    public static let defaultPeak = Double.pow(10, -1.0 / 20)

    /// Duration of the frame for a token of `tokenLength` bytes, seconds: (195 + 64 N) / 1200
    /// (1.496 s for 6 bytes, 2.563 s for 16), without the 8 chips of pulse tails.
    public static func frameDuration(tokenLength: Int) -> Double {
        Double(
            NUTSequences.preambleChips + NUTSequences.symbolChips * NUTFrameCoding.symbolCount(tokenLength: tokenLength)
        ) / chipRate
    }

    /// Time from the frame's first sample to the start of preamble chip 0 (its centre minus
    /// half a chip): 3.5 Tc, the start a decoder reports (NUT-47).
    public static let chipZeroOffset = (Double(pulseHalfSpan) - 0.5) / chipRate

    /// One frame's samples.
    public func samples(token: [UInt8]) throws(AudioTokenError) -> [Float] {
        let chips = NUTSequences.frameChips(symbols: try NUTFrameCoding.symbols(token: token))
        let span = Self.pulseHalfSpan
        let count = Int((Double(chips.count + 2 * span) / Self.chipRate * sampleRate).rounded(.up))
        var signal = [Double](repeating: 0, count: count)
        let omega = 2 * Double.pi * Self.carrierHz / sampleRate
        let integerRate = sampleRate == sampleRate.rounded() ? Int(sampleRate) : nil
        let rc = Int(Self.chipRate)
        for n in 0..<count {
            // time in chips relative to chip 0's centre
            let tc = Double(n) / sampleRate * Self.chipRate - Double(span)
            // chips k with |tc − k| < 4, i.e. k·fs < n·Rc < (k + 8)·fs
            var first: Int, last: Int
            if let fs = integerRate {
                first = Self.floorDivide(n * rc - 2 * span * fs, fs) + 1
                last = Self.ceilDivide(n * rc, fs) - 1
            } else {
                first = Int((tc - Double(span)).rounded(.down)) + 1
                last = Int((tc + Double(span)).rounded(.up)) - 1
            }
            first = max(0, first)
            last = min(chips.count - 1, last)
            var baseband = 0.0
            if first <= last {
                for k in first...last { baseband += Double(chips[k]) * RootRaisedCosine.value(tc - Double(k)) }
            }
            signal[n] = baseband * Double.cos(omega * Double(n))
        }
        let ramp = Int(Self.rampSeconds * sampleRate)
        applyRamps(&signal, length: ramp)
        let maximum = signal.reduce(0) { max($0, abs($1)) }
        let scale = maximum > 0 ? peak / maximum : 0
        return signal.map { Float($0 * scale) }
    }
}

extension InaudibleEncoder {
    static func floorDivide(_ a: Int, _ b: Int) -> Int { a >= 0 ? a / b : -((-a + b - 1) / b) }
    static func ceilDivide(_ a: Int, _ b: Int) -> Int { -floorDivide(-a, b) }
}

/// Multiplies the first and last `length` samples by a raised-cosine ramp
/// w[i] = ½ − ½ cos(π i / length).
func applyRamps(_ signal: inout [Double], length: Int) {
    guard length > 0, signal.count >= 2 * length else { return }
    for i in 0..<length {
        let w = 0.5 - 0.5 * Double.cos(Double.pi * Double(i) / Double(length))
        signal[i] *= w
        signal[signal.count - 1 - i] *= w
    }
}
