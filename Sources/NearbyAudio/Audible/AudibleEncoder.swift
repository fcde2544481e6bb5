import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// NUT-A, the audible mode: a 100 ms up-chirp from 1.2 to 4.2 kHz, a 20 ms gap, then one
/// 50 ms two-tone symbol per nibble (NUT-20 to NUT-24).
///
/// Tones f_j = 1200 + 200 j Hz. Symbol i uses bank b = i mod 2: low tone j = b + 2(s >> 2),
/// high tone j = 8 + b + 2(s & 3), each at half amplitude, under an envelope of 5 ms
/// raised-cosine attack, 35 ms sustain, 5 ms raised-cosine release and 5 ms silence. Each
/// tone's phase starts at 0 with its symbol. Defined in continuous time (t = 0 at the
/// chirp's first sample) and sampled at any rate ≥ 44 100 Hz.
public struct AudibleEncoder: Sendable {
    public static let firstToneHz = 1_200.0
    public static let toneSpacingHz = 200.0
    public static let symbolSeconds = 0.050
    public static let attackSeconds = 0.005
    public static let sustainSeconds = 0.035
    public static let releaseSeconds = 0.005
    public static let chirpSeconds = 0.100
    public static let chirpEndHz = 4_200.0
    public static let chirpRampSeconds = 0.005
    public static let gapSeconds = 0.020

    /// Output sample rate, Hz (≥ 44 100).
    public var sampleRate: Double
    /// Peak amplitude of the frame (full scale 1.0); the default is −1 dBFS.
    public var peak: Double

    public init(sampleRate: Double, peak: Double = InaudibleEncoder.defaultPeak) {
        self.sampleRate = sampleRate
        self.peak = peak
    }

    /// Frame duration for a token of `tokenLength` bytes, seconds: 0.12 + 0.05 N
    /// (1.37 s for 6 bytes, 2.37 s for 16).
    public static func frameDuration(tokenLength: Int) -> Double {
        chirpSeconds + gapSeconds + symbolSeconds * Double(NUTFrameCoding.symbolCount(tokenLength: tokenLength))
    }

    /// The two tone frequencies (low, high) of symbol `index` carrying `value`, Hz.
    public static func tones(index: Int, value: Int) -> (low: Double, high: Double) {
        let bank = index % 2
        return (
            firstToneHz + toneSpacingHz * Double(bank + 2 * (value >> 2)),
            firstToneHz + toneSpacingHz * Double(8 + bank + 2 * (value & 3))
        )
    }

    /// The symbol envelope at local time t (seconds from the symbol's start).
    static func envelope(_ t: Double) -> Double {
        if t < 0 { return 0 }
        if t < attackSeconds { return 0.5 - 0.5 * Double.cos(Double.pi * t / attackSeconds) }
        if t < attackSeconds + sustainSeconds { return 1 }
        let r = t - attackSeconds - sustainSeconds
        if r < releaseSeconds { return 0.5 + 0.5 * Double.cos(Double.pi * r / releaseSeconds) }
        return 0
    }

    /// The preamble chirp at local time t (seconds from its start), before scaling.
    public static func chirp(_ t: Double, sampleRate: Double) -> Double {
        guard t >= 0, t < chirpSeconds else { return 0 }
        let k = (chirpEndHz - firstToneHz) / chirpSeconds
        var value = Double.sin(2 * Double.pi * (firstToneHz * t + 0.5 * k * t * t))
        // Ramps of ⌊5 ms · fs⌋ samples, as the sampled definition.
        let ramp = Double(Int(chirpRampSeconds * sampleRate)) / sampleRate
        let total = (chirpSeconds * sampleRate).rounded() / sampleRate
        if t < ramp { value *= 0.5 - 0.5 * Double.cos(Double.pi * t / ramp) }
        let fromEnd = total - (1 / sampleRate) - t
        if fromEnd < ramp { value *= 0.5 - 0.5 * Double.cos(Double.pi * max(fromEnd, 0) / ramp) }
        return value
    }

    /// One frame's samples.
    public func samples(token: [UInt8]) throws(AudioTokenError) -> [Float] {
        let symbols = try NUTFrameCoding.symbols(token: token)
        let duration = Self.frameDuration(tokenLength: token.count)
        let count = Int((duration * sampleRate).rounded())
        let symbolsStart = Self.chirpSeconds + Self.gapSeconds
        var signal = [Double](repeating: 0, count: count)
        for n in 0..<count {
            let t = Double(n) / sampleRate
            if t < Self.chirpSeconds {
                signal[n] = Self.chirp(t, sampleRate: sampleRate)
                continue
            }
            let i = Int(((t - symbolsStart) / Self.symbolSeconds).rounded(.down))
            guard i >= 0, i < symbols.count else { continue }
            let local = t - symbolsStart - Double(i) * Self.symbolSeconds
            let (low, high) = Self.tones(index: i, value: symbols[i])
            signal[n] =
                Self.envelope(local) * 0.5
                * (Double.sin(2 * Double.pi * low * local) + Double.sin(2 * Double.pi * high * local))
        }
        let maximum = signal.reduce(0) { max($0, abs($1)) }
        let scale = maximum > 0 ? peak / maximum : 0
        return signal.map { Float($0 * scale) }
    }
}
