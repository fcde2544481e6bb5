import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One set of channel impairments of `audio evaluate` (docs/spec/nut-audio.md, "Channel model"). Applied in
/// this order: level, reverberation, time scale and resampling, white noise, 16-bit
/// quantisation (always). The SNR is that of the direct sound: the frame's power before
/// reverberation over the in-band noise power; the reverberant tail comes on top, as
/// interference. When reverberation or noise takes the peak past full scale, signal and
/// noise are scaled down together, as by a recorder whose gain is set so nothing clips.
public struct ChannelCondition: Sendable, Hashable {
    /// Short name shown in the table ("awgn -6", "clock +0.5%", …).
    public var name: String
    /// In-band SNR, dB: signal power over the frame / white-noise power inside the mode's
    /// band (NUT-I 18.5–20 kHz, B = 1500 Hz; NUT-A 1.1–4.3 kHz, B = 3200 Hz). nil: no noise.
    public var snrDb: Double?
    /// Sample rate of the recording, Hz (the frame is encoded at 48 kHz).
    public var recordingRate: Double
    /// Time-scale error ε (0.005 = +0.5 %: the sender's clock fast by 0.5 %).
    public var timeScale: Double
    public var reverb: Freeverb?
    /// Frame peak level, dBFS.
    public var levelDbfs: Double

    public init(
        name: String, snrDb: Double? = nil, recordingRate: Double = 48_000, timeScale: Double = 0,
        reverb: Freeverb? = nil, levelDbfs: Double = -1
    ) {
        self.name = name
        self.snrDb = snrDb
        self.recordingRate = recordingRate
        self.timeScale = timeScale
        self.reverb = reverb
        self.levelDbfs = levelDbfs
    }

    public static func == (a: ChannelCondition, b: ChannelCondition) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// In-band noise bandwidth of `mode`, Hz.
    public static func bandwidth(_ mode: AudioMode) -> Double { mode == .audible ? 3_200 : 1_500 }

    /// The recording of one frame (encoded at `encodedRate`, peak −1 dBFS) after `lead`
    /// seconds of silence and before 0.5 s of silence, through this channel.
    package func apply(
        frame: [Float], encodedRate: Double, lead: Double, mode: AudioMode,
        noise: inout GaussianNoise
    ) -> [Float] {
        let leadSamples = Int(lead * encodedRate)
        let gain = Float(Double.pow(10, levelDbfs / 20) / InaudibleEncoder.defaultPeak)
        let power =
            frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(frame.count, 1)) * Double(gain * gain)
        var x =
            [Float](repeating: 0, count: leadSamples) + frame.map { $0 * gain }
            + [Float](repeating: 0, count: Int(0.5 * encodedRate))
        if let reverb { x = reverb.apply(x, sampleRate: encodedRate) }
        if timeScale != 0 || recordingRate != encodedRate {
            x = SincResampler.resample(x, from: encodedRate, to: recordingRate, timeScale: timeScale)
        }
        if let snrDb {
            let bandNoise = power / Double.pow(10, snrDb / 10)
            let sigma = Float((bandNoise * (recordingRate / 2) / Self.bandwidth(mode)).squareRoot())
            for i in x.indices { x[i] += sigma * Float(noise.next()) }
        }
        // Reverberation and wide-band noise (at −6 dB in NUT-I's band, the noise over the
        // whole band is 4 times full scale) can take the peak past full scale: the recorder's
        // gain is set so that nothing clips, scaling signal and noise together (the SNR stays).
        let peak = x.reduce(Float(0)) { max($0, abs($1)) }
        if peak > 1 { x = x.map { $0 / peak } }
        for i in x.indices { x[i] = (max(-1, min(1, x[i])) * 32767).rounded() / 32767 }
        return x
    }
}
