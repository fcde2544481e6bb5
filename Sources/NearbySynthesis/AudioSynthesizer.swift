import NearbyAudio
import RealModule

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Renders a world's `audio` (docs/synthesis.md, "Audio"): every broadcaster's frames at its
/// level, over seeded white noise, as the samples of one mono recording starting at scenario
/// time 0, with the schedule of frames as ground truth.
public struct AudioSynthesizer {
    /// One frame in the recording, as the decoder reports it (docs/spec/nut-audio.md, its frame output).
    public struct SentFrame: Sendable, Equatable {
        public var broadcaster: Int
        /// Index of the frame's first sample in the recording.
        public var firstSample: Int
        /// The decoder's start (NUT-I: preamble chip 0; NUT-A: the chirp's first sample) and
        /// end (start + frame duration), seconds of the recording.
        public var start: Double
        public var end: Double
        /// In-band SNR of the frame against the noise (docs/spec/nut-audio.md, its channel model), dB.
        public var snrDb: Double
    }

    public let world: World
    public let audio: World.Audio
    /// Each broadcaster's frame, encoded once at its level.
    private let encodedFrames: [[Float]]
    /// Samples in the recording: the world's duration.
    private let sampleCount: Int

    public init(world: World, audio: World.Audio) {
        self.world = world
        self.audio = audio
        encodedFrames = audio.broadcasters.map { Self.encoded($0, sampleRate: Double(audio.sampleRate)) }
        sampleCount = Int(Double(world.durationMicros) / 1e6 * Double(audio.sampleRate))
    }

    /// When each broadcaster's frames begin: the first uniformly within 0–150 ms of `from`,
    /// each next one 50–150 ms after the previous one's last sample; a frame is sent only if
    /// it ends by `until` and by the world's end.
    public func schedule() -> [SentFrame] {
        var g = SeededGenerator(seed: world.seed ^ 0xA0D1_0000)
        let rate = Double(audio.sampleRate)
        let total = sampleCount
        var sent: [SentFrame] = []
        for (b, caster) in audio.broadcasters.enumerated() {
            let frame = encodedFrames[b]
            let length = frame.count
            let power = frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(length, 1))
            let noise = Double.pow(10, audio.noiseDbfs / 10) * ChannelCondition.bandwidth(caster.mode) / (rate / 2)
            let end = min(total, caster.until.map { Int(Double($0) / 1e6 * rate) } ?? total)
            var first = Int(Double(caster.from) / 1e6 * rate) + Int(g.unit() * 0.15 * rate)
            while first + length <= end {
                let offset = caster.mode == .inaudible ? InaudibleEncoder.chipZeroOffset : 0
                let duration =
                    caster.mode == .inaudible
                    ? InaudibleEncoder.frameDuration(tokenLength: caster.token.count)
                    : AudibleEncoder.frameDuration(tokenLength: caster.token.count)
                let start = Double(first) / rate + offset
                sent.append(
                    SentFrame(
                        broadcaster: b, firstSample: first, start: start, end: start + duration,
                        snrDb: 10 * Double.log10(power / noise)))
                first += length + Int((0.05 + 0.1 * g.unit()) * rate)
            }
        }
        return sent.sorted { ($0.start, $0.broadcaster) < ($1.start, $1.broadcaster) }
    }

    /// The recording: noise plus every scheduled frame, in full scale ±1 (the writer
    /// quantises to 16 bits).
    public func samples(_ frames: [SentFrame]) -> [Float] {
        let total = sampleCount
        var noise = GaussianNoise(seed: world.seed ^ 0xA0D1_0015)
        let sigma = Double.pow(10, audio.noiseDbfs / 20)
        var x = (0..<total).map { _ in Float(sigma * noise.next()) }
        for f in frames {
            let frame = encodedFrames[f.broadcaster]
            for (i, v) in frame.enumerated() where f.firstSample + i < total { x[f.firstSample + i] += v }
        }
        return x.map { max(-1, min(1, $0)) }
    }

    private static func encoded(_ caster: World.Broadcaster, sampleRate rate: Double) -> [Float] {
        let peak = Double.pow(10, caster.levelDbfs / 20)
        let frame =
            caster.mode == .inaudible
            ? (try? InaudibleEncoder(sampleRate: rate, peak: peak).samples(token: caster.token))
            : (try? AudibleEncoder(sampleRate: rate, peak: peak).samples(token: caster.token))
        return frame ?? []
    }
}
