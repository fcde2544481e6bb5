import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The receiver's front end: mixes a real passband stream down by a carrier, low-pass
/// filters it and decimates it (docs/spec/nut-audio.md, "NUT-I" reception, step 1).
///
/// Decimation D = ⌊fs / 4800⌋ (10 at 48 kHz, 9 at 44.1 kHz, 20 at 96 kHz), so the output
/// rate fs/D is 4800–4900 Hz. The filter is a Blackman-windowed sinc with its cutoff at
/// `cutoffHz`, ⌊`filterSeconds` · fs⌋ | 1 taps (4 ms for NUT-I), unit DC gain, applied centred: output j is the
/// baseband at input time j·D / fs (zero delay). The carrier comes from a table of one
/// period of e^(−j2π fc n / fs), so the phase is exact for any integer rate.
struct BasebandConverter {
    let sampleRate: Int
    let decimation: Int
    let outputRate: Double
    private let taps: [Float]
    private let half: Int
    private let carrierRe: [Float]
    private let carrierIm: [Float]
    private var carrierIndex = 0
    /// Mixed input not yet consumed, with `half` zeros before the stream's first sample.
    private var mixedRe: [Float]
    private var mixedIm: [Float]
    /// Absolute input index of mixedRe[0] (negative while the leading zeros are held).
    private var bufferStart: Int
    /// Next output index.
    private var nextOutput = 0

    init(sampleRate: Int, carrierHz: Int, cutoffHz: Double, filterSeconds: Double = 0.004) {
        self.sampleRate = sampleRate
        decimation = max(1, sampleRate / 4800)
        outputRate = Double(sampleRate) / Double(decimation)
        let count = Int(filterSeconds * Double(sampleRate)) | 1
        half = (count - 1) / 2
        let fc = 2 * cutoffHz / Double(sampleRate)
        var h = (0..<count).map { i -> Double in
            let m = Double(i - (count - 1) / 2)
            let sinc = m == 0 ? 1 : Double.sin(Double.pi * fc * m) / (Double.pi * fc * m)
            let w =
                0.42 - 0.5 * Double.cos(2 * Double.pi * Double(i) / Double(count - 1))
                + 0.08 * Double.cos(4 * Double.pi * Double(i) / Double(count - 1))
            return fc * sinc * w
        }
        let sum = h.reduce(0, +)
        h = h.map { $0 / sum }
        taps = h.map(Float.init)
        // One period of the carrier: fs / gcd(fs, fc) samples.
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        let period = sampleRate / gcd(sampleRate, carrierHz)
        let step = 2 * Double.pi * Double(carrierHz) / Double(sampleRate)
        carrierRe = (0..<period).map { Float(Double.cos(step * Double($0))) }
        carrierIm = (0..<period).map { Float(-Double.sin(step * Double($0))) }
        mixedRe = [Float](repeating: 0, count: half)
        mixedIm = [Float](repeating: 0, count: half)
        bufferStart = -half
    }

    /// Feeds `count` input samples read with `stride` from `input` and appends every output
    /// now complete to `output`.
    mutating func process(_ input: UnsafePointer<Float>, count: Int, stride: Int, into output: inout ComplexHistory) {
        let period = carrierRe.count
        mixedRe.reserveCapacity(mixedRe.count + count)
        mixedIm.reserveCapacity(mixedIm.count + count)
        for i in 0..<count {
            let x = input[i * stride]
            mixedRe.append(x * carrierRe[carrierIndex])
            mixedIm.append(x * carrierIm[carrierIndex])
            carrierIndex += 1
            if carrierIndex == period { carrierIndex = 0 }
        }
        emit(into: &output)
    }

    /// Emits the outputs whose window reaches past the end of the input (zeros assumed).
    mutating func finish(into output: inout ComplexHistory) {
        let padding = [Float](repeating: 0, count: half)
        mixedRe += padding
        mixedIm += padding
        emit(into: &output)
    }

    private mutating func emit(into output: inout ComplexHistory) {
        let count = taps.count
        let available = bufferStart + mixedRe.count  // absolute end of mixed input
        taps.withUnsafeBufferPointer { h in
            mixedRe.withUnsafeBufferPointer { re in
                mixedIm.withUnsafeBufferPointer { im in
                    while nextOutput * decimation + half < available {
                        let first = nextOutput * decimation - half - bufferStart
                        // Eight partial sums per part, added at the end.
                        var accRe = SIMD8<Float>(), accIm = SIMD8<Float>()
                        let hp = UnsafeRawPointer(h.baseAddress!)
                        let rp = UnsafeRawPointer(re.baseAddress! + first)
                        let ip = UnsafeRawPointer(im.baseAddress! + first)
                        var k = 0
                        while k + 8 <= count {
                            let offset = k * MemoryLayout<Float>.stride
                            let hk = hp.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                            accRe += hk * rp.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                            accIm += hk * ip.loadUnaligned(fromByteOffset: offset, as: SIMD8<Float>.self)
                            k += 8
                        }
                        var sr = accRe.sum(), si = accIm.sum()
                        while k < count {
                            sr += h[k] * re[first + k]
                            si += h[k] * im[first + k]
                            k += 1
                        }
                        output.append(sr, si)
                        nextOutput += 1
                    }
                }
            }
        }
        // Drop input no future output needs.
        let keepFrom = nextOutput * decimation - half - bufferStart
        if keepFrom > 0 {
            let drop = min(keepFrom, mixedRe.count)
            mixedRe.removeFirst(drop)
            mixedIm.removeFirst(drop)
            bufferStart += drop
        }
    }
}
