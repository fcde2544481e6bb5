import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Band-limited resampling with a time-scale error, for the evaluation's channel model:
/// output sample n is the input at time n / outputRate · (1 + ε) (ε > 0 compresses the
/// signal, as a sender whose clock runs fast). Blackman-windowed sinc with 32 zero crossings
/// each side and its cutoff at 0.95 × the lower Nyquist frequency, tabulated at 1/512 of an
/// input sample and interpolated linearly.
public enum SincResampler {
    public static func resample(
        _ input: [Float], from inputRate: Double, to outputRate: Double, timeScale epsilon: Double
    ) -> [Float] {
        let cutoff = 0.95 * min(inputRate, outputRate / (1 + epsilon)) / 2
        let fc = cutoff / inputRate  // cycles per input sample
        let span = 16 / fc  // input samples each side (32 zero crossings)
        let steps = 512
        let tableCount = Int(span * Double(steps)) + 2
        let table: [Float] = (0..<tableCount).map { i in
            let x = Double(i) / Double(steps)
            guard x < span else { return 0 }
            let sinc = x < 1e-12 ? 2 * fc : Double.sin(2 * Double.pi * fc * x) / (Double.pi * x)
            let w = 0.42 + 0.5 * Double.cos(Double.pi * x / span) + 0.08 * Double.cos(2 * Double.pi * x / span)
            return Float(sinc * w)
        }
        let outputCount = Int(Double(input.count) / inputRate * outputRate / (1 + epsilon))
        var output = [Float](repeating: 0, count: outputCount)
        table.withUnsafeBufferPointer { kernel in
            input.withUnsafeBufferPointer { x in
                for n in 0..<outputCount {
                    let position = Double(n) / outputRate * (1 + epsilon) * inputRate
                    let lo = max(0, Int((position - span).rounded(.up)))
                    let hi = min(x.count - 1, Int((position + span).rounded(.down)))
                    guard lo <= hi else { continue }
                    var sum: Float = 0
                    for k in lo...hi {
                        let d = abs(Double(k) - position) * Double(steps)
                        let i = Int(d)
                        let f = Float(d - Double(i))
                        sum += x[k] * (kernel[i] + f * (kernel[i + 1] - kernel[i]))
                    }
                    output[n] = sum
                }
            }
        }
        return output
    }
}
