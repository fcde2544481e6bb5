import Foundation
import NearbyAudio
import Testing

@Suite struct InaudibleRoundTripTests {
    /// Runs the demodulator over `signal` in blocks of 4096 samples.
    static func demodulate(_ signal: [Float], rate: Int) -> [AudioTokenFrame] {
        let demodulator = InaudibleDemodulator(sampleRate: rate)
        var frames: [AudioTokenFrame] = []
        signal.withUnsafeBufferPointer { p in
            var i = 0
            while i < p.count {
                let n = min(4096, p.count - i)
                demodulator.process(p.baseAddress! + i, count: n, stride: 1)
                frames += demodulator.takeFrames()
                i += n
            }
        }
        demodulator.finish()
        return frames + demodulator.takeFrames()
    }

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
}

extension InaudibleRoundTripTests {
    @Test func probeNoise() throws {
        var noise = GaussianNoise(seed: 7)
        for snr in [-4.0, -6.0, -8.0] {
            var ok = 0
            var errs: [Double] = []
            for trial in 0..<10 {
                let token = (0..<6).map { _ in UInt8(noise.uniform() * 256) }
                let frame = try InaudibleEncoder(sampleRate: 48_000).samples(token: token)
                let lead = 0.3 + noise.uniform() * 0.5
                let x = ChannelCondition(name: "x", snrDb: snr).apply(frame: frame, encodedRate: 48_000, lead: lead, mode: .inaudible, noise: &noise)
                let frames = Self.demodulate(x, rate: 48_000)
                if frames.contains(where: { $0.token == token }) { ok += 1 }
                if let f = frames.first { errs.append((f.start - (Double(Int(lead * 48000)) / 48000 + InaudibleEncoder.chipZeroOffset)) * 1e6); print(trial, f.snrDb, f.clockOffsetPpm) }
            }
            print("snr", snr, ok, errs.map { Int($0) })
        }
    }
}

extension InaudibleRoundTripTests {
    @Test func probeAudible() throws {
        var noise = GaussianNoise(seed: 7)
        for snr in [100.0, -2.0, -4.0, -6.0] {
            var ok = 0
            var errs: [Double] = []
            for _ in 0..<10 {
                let token = (0..<6).map { _ in UInt8(noise.uniform() * 256) }
                let frame = try AudibleEncoder(sampleRate: 48_000).samples(token: token)
                let lead = 0.3 + noise.uniform() * 0.5
                let x = ChannelCondition(name: "x", snrDb: snr).apply(frame: frame, encodedRate: 48_000, lead: lead, mode: .audible, noise: &noise)
                let d = AudibleDemodulator(sampleRate: 48_000)
                x.withUnsafeBufferPointer { d.process($0.baseAddress!, count: $0.count, stride: 1) }
                d.finish()
                let frames = d.takeFrames()
                if frames.contains(where: { $0.token == token }) { ok += 1 }
                if let f = frames.first { errs.append((f.start - Double(Int(lead * 48000)) / 48000) * 1e6); print(f.snrDb) }
            }
            print("snr", snr, ok, errs.map { Int($0) })
        }
    }
}
