import Foundation

/// Band-limited resampling with a time-scale error, for the evaluation's channel model:
/// output sample n is the input at time n / outputRate · (1 + ε) (ε > 0 compresses the
/// signal, as a sender whose clock runs fast). Blackman-windowed sinc, 32 zero crossings
/// each side, cutoff at 0.95 × the lower Nyquist frequency.
public enum SincResampler {
    public static func resample(_ input: [Float], from inputRate: Double, to outputRate: Double, timeScale epsilon: Double) -> [Float] {
        let half = 32
        let cutoff = 0.95 * min(inputRate, outputRate / (1 + epsilon)) / 2   // Hz, in input time
        let fc = cutoff / inputRate       // cycles per input sample
        let span = Double(half) / (2 * fc)  // input samples each side
        let outputCount = Int(Double(input.count) / inputRate * outputRate / (1 + epsilon))
        var output = [Float](repeating: 0, count: outputCount)
        for n in 0..<outputCount {
            let position = Double(n) / outputRate * (1 + epsilon) * inputRate
            let lo = max(0, Int((position - span).rounded(.up)))
            let hi = min(input.count - 1, Int((position + span).rounded(.down)))
            guard lo <= hi else { continue }
            var sum = 0.0
            for k in lo...hi {
                let x = Double(k) - position
                let sinc = abs(x) < 1e-12 ? 1 : sin(2 * Double.pi * fc * x) / (Double.pi * x)
                let w = 0.42 + 0.5 * cos(Double.pi * x / span) + 0.08 * cos(2 * Double.pi * x / span)
                sum += Double(input[k]) * (abs(x) < 1e-12 ? 2 * fc : sinc) * w
            }
            output[n] = Float(sum)
        }
        return output
    }
}
