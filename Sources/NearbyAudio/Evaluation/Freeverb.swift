/// The evaluation's reverberation: Jezar's Freeverb (8 damped feedback combs in parallel,
/// then 4 series all-passes; the model sox's `reverb` effect is built on), mono, with delay
/// lengths scaled from 44.1 kHz. Output = dry + wet·(reverberated signal) (Freeverb's
/// defaults: input gain 0.015, wet 1 after its ×3 wet scaling).
public struct Freeverb: Sendable {
    /// 0…1: comb feedback 0.7 + 0.28 · roomSize.
    public var roomSize: Double
    /// 0…1: one-pole low-pass inside the combs (0 = no high-frequency damping).
    public var damping: Double
    /// Wet gain relative to the dry signal.
    public var wet: Double

    public init(roomSize: Double, damping: Double, wet: Double) {
        self.roomSize = roomSize
        self.damping = damping
        self.wet = wet
    }

    /// Close to sox `reverb 90 0 100` (reverberance 90 %, no HF damping, full room scale,
    /// wet gain 0 dB): the condition the NUT draft measured.
    public static let heavy = Freeverb(roomSize: 0.9, damping: 0, wet: 1)

    public func apply(_ input: [Float], sampleRate: Double) -> [Float] {
        let scale = sampleRate / 44_100
        let combLengths = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617].map { max(1, Int(Double($0) * scale)) }
        let allpassLengths = [556, 441, 341, 225].map { max(1, Int(Double($0) * scale)) }
        let feedback = Float(0.7 + 0.28 * roomSize)
        let damp = Float(damping * 0.4)
        var combs = combLengths.map { [Float](repeating: 0, count: $0) }
        var combIndex = [Int](repeating: 0, count: 8)
        var combStore = [Float](repeating: 0, count: 8)
        var allpasses = allpassLengths.map { [Float](repeating: 0, count: $0) }
        var allpassIndex = [Int](repeating: 0, count: 4)
        let fixedGain: Float = 0.015
        var output = [Float](repeating: 0, count: input.count)
        for n in 0..<input.count {
            let x = input[n] * fixedGain
            var sum: Float = 0
            for c in 0..<8 {
                let y = combs[c][combIndex[c]]
                combStore[c] = y * (1 - damp) + combStore[c] * damp
                combs[c][combIndex[c]] = x + combStore[c] * feedback
                combIndex[c] = (combIndex[c] + 1) % combLengths[c]
                sum += y
            }
            for a in 0..<4 {
                let buffered = allpasses[a][allpassIndex[a]]
                let y = -sum + buffered
                allpasses[a][allpassIndex[a]] = sum + buffered * 0.5
                allpassIndex[a] = (allpassIndex[a] + 1) % allpassLengths[a]
                sum = y
            }
            output[n] = input[n] + Float(wet) * sum
        }
        return output
    }
}
