import Foundation
import NearbyAudio
import NearbyBytes
import Testing

@Suite struct InaudibleDemodulatorTests {
    /// Runs a demodulator over `signal` in blocks of `block` samples.
    static func demodulate(
        _ signal: [Float], rate: Int, mode: AudioMode = .inaudible, block: Int = 4096
    ) -> [AudioTokenFrame] {
        let demodulator: AudioDemodulator =
            mode == .audible
            ? AudibleDemodulator(sampleRate: rate) : InaudibleDemodulator(sampleRate: rate)
        var frames: [AudioTokenFrame] = []
        var i = 0
        while i < signal.count {
            let n = min(block, signal.count - i)
            demodulator.process(Array(signal[i..<(i + n)]))
            frames += demodulator.takeFrames()
            i += n
        }
        demodulator.finish()
        return frames + demodulator.takeFrames()
    }

    /// Holds NUT-2, NUT-32 and NUT-47.
    @Test(arguments: [48_000, 44_100, 96_000])
    func aCleanFrameInSilenceDecodesWithItsStartTime(rate: Int) throws {
        let token: [UInt8] = [0, 1, 2, 3, 4, 5]
        let frame = try InaudibleEncoder(sampleRate: Double(rate)).samples(token: token)
        let lead = rate / 2
        let signal = [Float](repeating: 0, count: lead) + frame + [Float](repeating: 0, count: rate / 2)
        let frames = Self.demodulate(signal, rate: rate)
        #expect(frames.count == 1)
        let f = try #require(frames.first)
        #expect(f.token == token)
        let expectedStart = 0.5 + InaudibleEncoder.chipZeroOffset
        #expect(abs(f.start - expectedStart) < 50e-6, "start \(f.start) vs \(expectedStart)")
        #expect(abs(f.clockOffsetPpm) < 30)
        #expect(f.correctedBytes == 0)
    }

    /// A recording of `tokens` (one frame each, 50–150 ms apart) through `condition`.
    static func recording(
        _ tokens: [[UInt8]], mode: AudioMode, condition: ChannelCondition, seed: UInt64
    )
        throws -> (samples: [Float], starts: [Double])
    {
        var noise = GaussianNoise(seed: seed)
        var clean: [Float] = [Float](repeating: 0, count: 24_000)
        var starts: [Double] = []
        for token in tokens {
            let frame =
                mode == .audible
                ? try AudibleEncoder(sampleRate: 48_000).samples(token: token)
                : try InaudibleEncoder(sampleRate: 48_000).samples(token: token)
            starts.append(Double(clean.count) / 48_000 + (mode == .audible ? 0 : InaudibleEncoder.chipZeroOffset))
            clean += frame + [Float](repeating: 0, count: 2_400 + Int(noise.uniform() * 4_800))
        }
        let samples = condition.apply(frame: clean, encodedRate: 48_000, lead: 0, mode: mode, noise: &noise)
        return (samples, starts.map { $0 / (1 + condition.timeScale) })
    }

    /// Holds NUT-19 and NUT-52.
    @Test func repeatedFramesComeOutInOrderWhateverTheBlockSize() throws {
        let tokens: [[UInt8]] = [
            Hex.decode("0102030405060708")!, Hex.decode("a0a1a2a3a4a5")!,
            Hex.decode("00112233445566778899aabbccddeeff")!, Hex.decode("0102030405060708")!,
        ]
        let (x, starts) = try Self.recording(
            tokens, mode: .inaudible, condition: ChannelCondition(name: "n", snrDb: 0), seed: 3)
        let small = Self.demodulate(x, rate: 48_000, block: 1_000)
        let large = Self.demodulate(x, rate: 48_000, block: 1 << 20)
        #expect(small.map(\.token) == tokens)
        #expect(small == large)
        for (f, s) in zip(small, starts) { #expect(abs(f.start - s) < 100e-6) }
    }

    /// Holds NUT-38 and NUT-44.
    @Test func aFrameFourDecibelsBelowTheNoiseInBandDecodes() throws {
        for seed in UInt64(1)...5 {
            let token = (0..<16).map { UInt8(truncatingIfNeeded: $0 * 17 + Int(seed)) }
            let (x, starts) = try Self.recording(
                [token], mode: .inaudible, condition: ChannelCondition(name: "n", snrDb: -4), seed: seed)
            let frames = Self.demodulate(x, rate: 48_000)
            #expect(frames.map(\.token) == [token], "seed \(seed)")
            if let f = frames.first {
                #expect(abs(f.start - starts[0]) < 200e-6)
                #expect(abs(f.snrDb - -4) < 3, "SNR estimate \(f.snrDb) dB for -4 dB")
            }
        }
    }

    /// Holds NUT-40, NUT-41, NUT-44 and NUT-51.
    @Test(arguments: [(48_000.0, 0.005), (48_000.0, -0.005), (44_100.0, 0.001), (44_100.0, -0.004)])
    func clockErrorIsToleratedAndMeasured(rate: Double, epsilon: Double) throws {
        let token: [UInt8] = Hex.decode("5a5a5a5a5a5a")!
        let condition = ChannelCondition(name: "c", recordingRate: rate, timeScale: epsilon)
        let (x, starts) = try Self.recording([token], mode: .inaudible, condition: condition, seed: 9)
        let frames = Self.demodulate(x, rate: Int(rate))
        #expect(frames.map(\.token) == [token])
        if let f = frames.first {
            #expect(
                abs(f.clockOffsetPpm - epsilon * 1e6) < 100, "measured \(f.clockOffsetPpm) ppm for \(epsilon * 1e6)")
            #expect(abs(f.start - starts[0]) < 100e-6)
        }
    }

    /// Frames whose peak is 50 dB below full scale, quantised to 16 bits (a quiet recording):
    /// at least 95 % decode, in both modes, 6- and 16-byte tokens; here all 40 must, and no
    /// other token appears.
    /// Holds NUT-42.
    @Test func framesFiftyDecibelsBelowFullScaleInSixteenBitsDecode() throws {
        for mode in [AudioMode.inaudible, .audible] {
            for length in [6, 16] {
                let tokens = (0..<10).map { i in (0..<length).map { UInt8(truncatingIfNeeded: 29 * $0 + 7 * i + 1) } }
                let (x, _) = try Self.recording(
                    tokens, mode: mode, condition: ChannelCondition(name: "quiet", levelDbfs: -50), seed: 3)
                // 16-bit samples: the quantisation noise of a file, 2^-15 of full scale.
                let quantised = x.map { Float((Double($0) * 32_767).rounded()) / 32_767 }
                let frames = Self.demodulate(quantised, rate: 48_000, mode: mode)
                let decoded = frames.map(\.token).filter { tokens.contains($0) }.count
                #expect(decoded * 100 >= 95 * tokens.count, "\(mode) \(length) bytes: \(decoded) of \(tokens.count)")
                #expect(frames.allSatisfy { tokens.contains($0.token) }, "no other token")
            }
        }
    }

    /// Holds NUT-45.
    @Test func whiteNoiseAloneYieldsNoTokens() {
        #expect(AudioEvaluation.noiseOnly(seconds: 30, seed: 11).isEmpty)
    }
}

@Suite struct AudibleDemodulatorTests {
    /// Holds NUT-32 and NUT-48.
    @Test(arguments: [48_000.0, 44_100.0])
    func framesDecodeWithTheirChirpStart(rate: Double) throws {
        let tokens: [[UInt8]] = [Hex.decode("c0ffee000000beef")!, Hex.decode("0102030405060708090a0b0c")!]
        let condition = ChannelCondition(name: "n", snrDb: -2, recordingRate: rate)
        let (x, starts) = try InaudibleDemodulatorTests.recording(tokens, mode: .audible, condition: condition, seed: 5)
        let frames = InaudibleDemodulatorTests.demodulate(x, rate: Int(rate), mode: .audible)
        #expect(frames.map(\.token) == tokens)
        #expect(frames.allSatisfy { $0.mode == .audible })
        for (f, s) in zip(frames, starts) { #expect(abs(f.start - s) < 200e-6, "start \(f.start) vs \(s)") }
    }

    /// Holds NUT-43.
    @Test func reverberationIsTolerated() throws {
        let token: [UInt8] = Hex.decode("112233445566")!
        let (x, _) = try InaudibleDemodulatorTests.recording(
            [token], mode: .audible,
            condition: ChannelCondition(name: "r", reverb: .heavy), seed: 2)
        #expect(InaudibleDemodulatorTests.demodulate(x, rate: 48_000, mode: .audible).map(\.token) == [token])
    }

    /// Holds NUT-40, NUT-41, NUT-48, NUT-50 and NUT-51.
    @Test(arguments: [(48_000.0, 0.005), (48_000.0, -0.005), (44_100.0, 0.001), (44_100.0, -0.004)])
    func clockErrorIsMeasuredAndTheStartCorrected(rate: Double, epsilon: Double) throws {
        let token: [UInt8] = Hex.decode("0f1e2d3c4b5a69788796a5b4c3d2e1f0")!
        let condition = ChannelCondition(name: "c", recordingRate: rate, timeScale: epsilon)
        let (x, starts) = try InaudibleDemodulatorTests.recording(
            [token], mode: .audible, condition: condition, seed: 4)
        let frames = InaudibleDemodulatorTests.demodulate(x, rate: Int(rate), mode: .audible)
        #expect(frames.map(\.token) == [token])
        if let f = frames.first {
            #expect(
                abs(f.clockOffsetPpm - epsilon * 1e6) < 100, "measured \(f.clockOffsetPpm) ppm for \(epsilon * 1e6)")
            // Uncorrected, the chirp's range–Doppler shift would put the start 0.14·ε s early.
            #expect(abs(f.start - starts[0]) < 100e-6, "start \(f.start) vs \(starts[0])")
            let end = starts[0] + AudibleEncoder.frameDuration(tokenLength: 16) / (1 + epsilon)
            #expect(abs(f.end - end) < 200e-6, "end \(f.end) vs \(end)")
        }
    }

    /// The matched tone filter's gain over the draft's 30 ms Hann window (docs/spec/nut-audio.md,
    /// "Changes from the draft", item 8): at −8 dB
    /// in-band the Hann receiver decoded 0 of 40 16-byte frames.
    /// Holds NUT-39 and NUT-44.
    @Test func sixteenByteFramesEightDecibelsBelowTheNoiseDecode() throws {
        let tokens = (0..<4).map { i in (0..<16).map { UInt8(truncatingIfNeeded: 37 * $0 + 11 * i) } }
        let condition = ChannelCondition(name: "n", snrDb: -8)
        let (x, starts) = try InaudibleDemodulatorTests.recording(
            tokens, mode: .audible, condition: condition, seed: 21)
        let frames = InaudibleDemodulatorTests.demodulate(x, rate: 48_000, mode: .audible)
        #expect(frames.map(\.token) == tokens)
        for f in frames { #expect(abs(f.snrDb - -8) < 1.5, "SNR estimate \(f.snrDb) dB for -8 dB") }
        for (f, s) in zip(frames, starts) { #expect(abs(f.start - s) < 200e-6) }
    }
}

@Suite struct AudioEvaluationTests {
    /// A trial's draws depend on the condition's name, not its place in the list, so
    /// `--filter` shows the same trials as the full table.
    @Test func aConditionGivesTheSameRowAloneAsAmongOthers() {
        let target = ChannelCondition(name: "awgn -9", snrDb: -9)
        let alone = AudioEvaluation(mode: .audible, tokenLengths: [6], trials: 4, seed: 3, conditions: [target]).run()
        let among = AudioEvaluation(
            mode: .audible, tokenLengths: [16, 6], trials: 4, seed: 3,
            conditions: [ChannelCondition(name: "clean"), target]
        ).run()
        #expect(among.count == 4)
        #expect(among.last == alone.first)
        #expect(alone.first?.medianTimingErrorMicros != nil)
    }
}
